import { ApiError } from '../../shared/apiError.ts';
import type { TimerHandle } from '../../shared/clock.ts';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import type { RequestContext, SimWatch } from '../store/types.ts';
import type { WorkloadCluster } from './workloadCluster.ts';

// The loop every built-in workload controller runs, shaped like a controller-manager loop: watches
// that map events to keys, a deduplicating queue, one reconcile at a time, per-key exponential
// backoff on errors and requeue-after. Time comes from the cluster's clock, so a paused or fake
// clock pauses these controllers too.

export interface WatchedResource {
  gvr: GroupVersionResource;
  /** The keys (`namespace/name` of the controller's own kind) an event on this object concerns. */
  keysFor(object: Readonly<KubeObject>, type: 'ADDED' | 'MODIFIED' | 'DELETED'): string[];
}

export interface ControllerDefinition {
  /** The controller-manager loop's name, e.g. `deployment-controller` (also in the user agent). */
  name: string;
  /**
   * Its delayed keys are retries that may go on for ever (the scheduler's look at a Pod no Node
   * fits), not work on the way: they do not keep the workloads busy.
   */
  retriesOnly?: boolean;
  watches: WatchedResource[];
  /** Brings one key to its desired state; answers ms until it wants another look, if any. */
  reconcile(key: string, ctx: RequestContext): number | void;
  /** Resources a reconcile found it must watch too (a quota counting a custom resource): opened once each, after it. */
  moreWatches?(): Iterable<WatchedResource>;
}

export interface RunningController {
  /** Queues a key now (e.g. for a periodic resync). */
  enqueue(key: string): void;
  /** A key is queued, or one is due within `withinMs` (on the cluster's clock). */
  busy(withinMs: number): boolean;
  stop(): void;
}

const BASE_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 10_000;

export function runController(cluster: WorkloadCluster, definition: ControllerDefinition, ctx: RequestContext, onError: (message: string) => void): RunningController {
  const dirty = new Set<string>();
  const failures = new Map<string, number>();
  const delayed = new Map<string, TimerHandle>();
  /** When each delayed key falls due (cluster clock). */
  const dueAt = new Map<string, number>();
  const watches: SimWatch[] = [];
  let scheduled: TimerHandle | undefined;
  let stopped = false;

  const schedule = (): void => {
    if (scheduled || stopped || dirty.size === 0) return;
    // Never reconcile inside the watch delivery that announced a change: the writer is still on the stack.
    scheduled = cluster.clock.setTimer(0, drain);
  };

  const enqueue = (key: string): void => {
    if (stopped) return;
    dirty.add(key);
    schedule();
  };

  const enqueueAfter = (key: string, ms: number): void => {
    if (stopped) return;
    delayed.get(key)?.cancel();
    dueAt.set(key, cluster.clock.now() + ms);
    delayed.set(key, cluster.clock.setTimer(ms, () => {
      delayed.delete(key);
      dueAt.delete(key);
      enqueue(key);
    }));
  };

  function drain(): void {
    scheduled = undefined;
    const keys = [...dirty];
    dirty.clear();
    for (const key of keys) {
      if (stopped) return;
      try {
        const after = definition.reconcile(key, ctx);
        for (const resource of definition.moreWatches?.() ?? []) openOnce(resource);
        failures.delete(key);
        if (after !== undefined) enqueueAfter(key, after);
      } catch (err) {
        const n = (failures.get(key) ?? 0) + 1;
        failures.set(key, n);
        // Conflicts are routine (someone wrote first); anything else is worth a line.
        if (!(err instanceof ApiError && (err.code === 409 || err.code === 404))) {
          onError(`${definition.name}: ${key}: ${err instanceof Error ? err.message : String(err)}`);
        }
        enqueueAfter(key, Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (n - 1)));
      }
    }
    schedule();
  }

  /** The resources watched, by group/version/resource: a moreWatches resource is opened once. */
  const opened = new Set<string>();
  const openOnce = (resource: WatchedResource): void => {
    const id = `${resource.gvr.group}/${resource.gvr.version}/${resource.gvr.resource}`;
    if (opened.has(id)) return;
    opened.add(id);
    try {
      open(resource);
    } catch {
      // No longer served (its CRD went): a later reconcile that still names it tries again.
      opened.delete(id);
    }
  };

  const open = (resource: WatchedResource): void => {
    if (stopped) return;
    const watch = cluster.watch(resource.gvr, {}, {
      event: (event) => {
        if (event.type === 'BOOKMARK' || event.type === 'ERROR') return;
        for (const key of resource.keysFor(event.object, event.type)) enqueue(key);
      },
      // A dropped or expired watch is reopened from now: its synthetic ADDED events resync every key.
      close: () => {
        const i = watches.indexOf(watch);
        if (i >= 0) watches.splice(i, 1);
        cluster.clock.setTimer(10, () => {
          try {
            open(resource);
          } catch {
            opened.delete(`${resource.gvr.group}/${resource.gvr.version}/${resource.gvr.resource}`);
          }
        });
      },
    }, ctx);
    watches.push(watch);
  };
  for (const resource of definition.watches) openOnce(resource);

  return {
    enqueue,
    busy(withinMs) {
      if (stopped) return false;
      if (dirty.size > 0) return true;
      if (definition.retriesOnly) return false;
      const horizon = cluster.clock.now() + withinMs;
      for (const at of dueAt.values()) if (at <= horizon) return true;
      return false;
    },
    stop() {
      stopped = true;
      scheduled?.cancel();
      for (const t of delayed.values()) t.cancel();
      for (const w of watches.splice(0)) w.stop();
    },
  };
}

/** The key of the object's controlling owner of `kind`, if it has one. */
export function controllerKeyOf(object: Readonly<KubeObject>, kind: string): string[] {
  const owner = object.metadata.ownerReferences?.find((r) => r.controller && r.kind === kind);
  if (!owner) return [];
  const ns = object.metadata.namespace ?? '';
  return [ns ? `${ns}/${owner.name}` : owner.name];
}
