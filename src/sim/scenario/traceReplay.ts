import type { KubeObject } from '../../shared/k8s.ts';
import { ApiError } from '../../shared/apiError.ts';
import type { TimerHandle } from '../../shared/clock.ts';
import type { SimObjects } from '../simObjects.ts';
import type { RequestContext } from '../store/types.ts';

// Replays a recorded trace — JSON lines of watch events, as `kubectl get -w -o json
// --output-watch-events` or the timeline's export write them — into the simulated cluster:
// ADDED and MODIFIED become create-or-update (the recorded uid/resourceVersion are the old
// cluster's, so they are dropped), DELETED a delete. Lines may carry `at` (ms from the start) or
// `time` (RFC 3339) to keep the recorded pacing; BOOKMARK and ERROR lines are skipped.

const REPLAY_CLIENT: RequestContext = { client: { userAgent: 'controller-lab/trace-replay', tokenId: '' } };

export interface TraceEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject;
  /** ms from the first event. */
  at: number;
  line: number;
}

export interface TraceProblem {
  line: number;
  message: string;
}

export class TraceError extends Error {
  readonly problems: TraceProblem[];
  constructor(problems: TraceProblem[]) {
    super(problems.map((p) => `line ${p.line}: ${p.message}`).join('\n'));
    this.name = 'TraceError';
    this.problems = problems;
  }
}

/** Parses JSON lines; every bad line is reported (with its number) and nothing is returned. */
export function parseTrace(text: string): TraceEvent[] {
  const events: TraceEvent[] = [];
  const problems: TraceProblem[] = [];
  let firstTime: number | undefined;
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (err) {
      problems.push({ line, message: `not JSON: ${(err as Error).message}` });
      return;
    }
    const e = parsed as { type?: unknown; object?: unknown; at?: unknown; time?: unknown };
    if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
    if (e.type !== 'ADDED' && e.type !== 'MODIFIED' && e.type !== 'DELETED') {
      problems.push({ line, message: `type must be ADDED, MODIFIED or DELETED (got ${JSON.stringify(e.type)})` });
      return;
    }
    const obj = e.object as KubeObject | undefined;
    if (!obj || typeof obj !== 'object' || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string' || typeof obj.metadata?.name !== 'string') {
      problems.push({ line, message: 'object needs apiVersion, kind and metadata.name' });
      return;
    }
    let at = events.length === 0 ? 0 : (events[events.length - 1]?.at ?? 0);
    if (typeof e.at === 'number') at = e.at;
    else if (typeof e.time === 'string' && !Number.isNaN(Date.parse(e.time))) {
      const t = Date.parse(e.time);
      firstTime ??= t;
      at = t - firstTime;
    }
    events.push({ type: e.type, object: obj, at, line });
  });
  if (problems.length) throw new TraceError(problems);
  return events;
}

export interface TraceReplay {
  readonly done: Promise<void>;
  readonly applied: number;
  readonly errors: TraceProblem[];
  stop(): void;
}

/** Replays `text` on the cluster's clock; `speed` 2 = twice as fast, 0 = everything at once. */
export function replayTrace(cluster: SimObjects, text: string, options: { speed?: number } = {}): TraceReplay {
  const events = parseTrace(text);
  const speed = options.speed ?? 1;
  const errors: TraceProblem[] = [];
  let applied = 0;
  let next = 0;
  let stopped = false;
  let timer: TimerHandle | undefined;
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((r) => { resolveDone = r; });
  const start = cluster.clock.now();
  const due = (e: TraceEvent): number => (speed > 0 ? e.at / speed : 0);

  const run = (): void => {
    timer = undefined;
    while (!stopped && next < events.length) {
      const e = events[next];
      if (!e || due(e) > cluster.clock.now() - start) break;
      next++;
      try {
        applyEvent(cluster, e);
        applied++;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        errors.push({ line: e.line, message: err.message });
      }
    }
    const upcoming = events[next];
    if (stopped || !upcoming) return resolveDone();
    timer = cluster.clock.setTimer(due(upcoming) - (cluster.clock.now() - start), run);
  };
  run();
  return {
    done,
    get applied() { return applied; },
    errors,
    stop() {
      stopped = true;
      timer?.cancel();
      resolveDone();
    },
  };
}

function applyEvent(cluster: SimObjects, e: TraceEvent): void {
  const info = cluster.resources.byKind(e.object.apiVersion ?? '', e.object.kind ?? '');
  if (!info) throw new ApiError(404, `no kind "${e.object.kind ?? ''}" is served in ${e.object.apiVersion ?? ''}`, 'NotFound');
  const gvr = { group: info.group, version: info.version, resource: info.resource };
  const namespace = info.namespaced ? e.object.metadata.namespace ?? 'default' : '';
  const name = e.object.metadata.name ?? '';
  const exists = (): boolean => {
    try {
      cluster.get(gvr, namespace, name);
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return false;
      throw err;
    }
  };
  if (e.type === 'DELETED') {
    if (exists()) cluster.delete(gvr, namespace, name, {}, REPLAY_CLIENT);
    return;
  }
  if (namespace && info.resource !== 'namespaces') {
    const ns = { group: '', version: 'v1', resource: 'namespaces' };
    try {
      cluster.get(ns, '', namespace);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
      cluster.create(ns, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, REPLAY_CLIENT);
    }
  }
  const body = structuredClone(e.object);
  const meta = body.metadata;
  delete meta.uid;
  delete meta.resourceVersion;
  delete meta.creationTimestamp;
  delete meta.generation;
  delete meta.managedFields;
  delete meta.deletionTimestamp;
  const status = (body as { status?: unknown }).status;
  const hasStatus = status !== undefined && info.subresources.some((s) => s.name === 'status') && info.kind !== 'CustomResourceDefinition';
  // Replayed over whatever is stored: the stored resourceVersion, for kinds that refuse an update without one.
  if (exists()) cluster.update(gvr, namespace, name, { ...body, metadata: { ...meta, resourceVersion: cluster.get(gvr, namespace, name).object.metadata.resourceVersion } }, undefined, REPLAY_CLIENT);
  else cluster.create(gvr, namespace, body, REPLAY_CLIENT);
  if (hasStatus) cluster.patch(gvr, namespace, name, 'merge', { status }, 'status', REPLAY_CLIENT);
}
