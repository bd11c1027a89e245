import { pathToFileURL } from 'node:url';
import type { GroupVersionResource, KubeObject } from '../../../../src/shared/k8s.ts';
import { realClock } from '../../../../src/shared/clock.ts';
import { createSharedInformer } from '../../../../src/informer/index.ts';
import { createWorkQueue } from '../../../../src/workqueue/index.ts';
import type { SimClusterApi } from '../../../../src/sim/index.ts';
import { isControllerDefinition, type ControllerDefinition, type HostInit, type HostMessage, type KindRef } from '../../../../src/controllerProtocol/index.ts';
import { ControllerLoop } from '../../../../src/host/engine/controllerLoop.ts';
import type { ObjectWriter } from '../../../../src/host/engine/ports.ts';
import { TypedEmitter } from '../../../../src/runtime/typedEmitter.ts';
import type { ControllerProcessEvents, HostSpawnOptions, ParentMessage, TypeScriptHost } from '../../../../src/runtime/index.ts';
import { SharedInformerAdapter } from '../../../../src/host/informerAdapter.ts';
import { WorkQueueAdapter } from '../../../../src/host/queueAdapter.ts';

// A controller host in this process, for the debugger's tests: it loads the controller module it is
// given and runs it with the real controller loop, informers and workqueue against an in-memory
// simulated cluster, and speaks the controller-host protocol to its parent as the child process
// does over IPC — every message a copy, delivered after the current turn, in order — so the
// ControllerSession and the reconcile runtime above it are the real ones, with no child process.

/** The kinds the test controllers use, as the cluster serves them. */
const RESOURCES: Record<string, GroupVersionResource> = {
  'v1/ConfigMap': { group: '', version: 'v1', resource: 'configmaps' },
  'v1/Secret': { group: '', version: 'v1', resource: 'secrets' },
};

function resourceOf(kind: { apiVersion?: string; kind?: string }): GroupVersionResource {
  const gvr = RESOURCES[`${kind.apiVersion}/${kind.kind}`];
  if (!gvr) throw new Error(`the in-process host serves no ${kind.apiVersion} ${kind.kind}`);
  return gvr;
}

async function loadDefinition(moduleFile: string): Promise<ControllerDefinition> {
  const mod = (await import(pathToFileURL(moduleFile).href)) as Record<string, unknown>;
  const found = Object.values(mod).find(isControllerDefinition);
  if (!found) throw new Error(`${moduleFile} exports no controller`);
  return found;
}

function writerFor(cluster: SimClusterApi): ObjectWriter {
  const copy = (o: Readonly<KubeObject>) => structuredClone(o) as KubeObject;
  return {
    create: async (obj) => copy(cluster.create(resourceOf(obj), obj.metadata.namespace ?? '', obj).object),
    update: async (obj, sub) => copy(cluster.update(resourceOf(obj), obj.metadata.namespace ?? '', obj.metadata.name ?? '', obj, sub).object),
    patch: async (ref, patch, type) => copy(cluster.patch(resourceOf(ref), ref.namespace ?? '', ref.name, type, patch).object),
    delete: async (ref) => copy(cluster.delete(resourceOf(ref), ref.namespace ?? '', ref.name).object.object),
  };
}

export class InProcessHost extends TypedEmitter<ControllerProcessEvents> implements TypeScriptHost {
  readonly pid = undefined;
  /** What the parent sent, in order (init, proceed, shutdown). */
  readonly received: ParentMessage[] = [];
  private readonly cluster: SimClusterApi;
  private readonly gateWaiters = new Map<string, (decision: { stepIn?: boolean }) => void>();
  private loop: ControllerLoop | undefined;
  private alive = false;

  constructor(cluster: SimClusterApi) {
    super();
    this.cluster = cluster;
  }

  get running(): boolean {
    return this.alive;
  }

  start(init: Omit<HostInit, 'type'>, _options?: HostSpawnOptions): void {
    this.alive = true;
    const message: HostInit = { type: 'init', ...init };
    this.received.push(message);
    void this.run(message);
  }

  /** The parent's messages besides init and proceed: a resync. */
  send(message: ParentMessage): void {
    if (message.type === 'resync') this.loop?.resync();
  }

  proceed(reconcileId: string, stepIn = false): void {
    this.received.push({ type: 'proceed', reconcileId, stepIn: stepIn || undefined });
    setImmediate(() => {
      const open = this.gateWaiters.get(reconcileId);
      this.gateWaiters.delete(reconcileId);
      open?.({ stepIn });
    });
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    this.received.push({ type: 'shutdown' });
    for (const open of this.gateWaiters.values()) open({});
    await this.loop?.stop();
    this.exit(0, true);
  }

  kill(): void {
    if (!this.alive) return;
    void this.loop?.stop();
    this.exit(null, true);
  }

  stopWatchdog(): void {}

  private async run(init: HostInit): Promise<void> {
    let definition: ControllerDefinition;
    try {
      definition = await loadDefinition(init.moduleFile);
    } catch (err) {
      this.emitToParent({ type: 'fatal', phase: 'load', message: (err as Error).message });
      setImmediate(() => this.exit(3, false));
      return;
    }
    const kinds = new Map<string, KindRef>();
    for (const k of [definition.for, ...(definition.owns ?? []), ...(definition.watches ?? [])]) kinds.set(`${k.apiVersion}/${k.kind}`, { apiVersion: k.apiVersion, kind: k.kind });
    const informers = [...kinds.values()].map((kind) => {
      const gvr = resourceOf(kind);
      const informer = createSharedInformer({ name: gvr.resource, listerWatcher: this.cluster.listerWatcher(gvr), clock: realClock });
      informer.onProbe((probe) => this.emitToParent({ type: 'probe', probe }));
      return new SharedInformerAdapter(kind, informer, gvr.group ? `${gvr.resource}.${gvr.group}` : gvr.resource);
    });
    this.loop = new ControllerLoop({
      definition,
      informers,
      queue: new WorkQueueAdapter(createWorkQueue<string>({ name: definition.name, clock: realClock }), realClock),
      writer: writerFor(this.cluster),
      clock: realClock,
      workers: init.workers ?? definition.maxConcurrentReconciles ?? 1,
      reconcileTimeoutMs: init.reconcileTimeoutMs,
      mirrorCache: init.mirrorCache,
      gate: init.gated ? (record) => new Promise((resolve) => this.gateWaiters.set(record.reconcileId, resolve)) : undefined,
      send: (m) => this.emitToParent(m),
    });
    this.emitToParent({ type: 'ready', controller: this.loop.shape });
    await this.loop.start();
  }

  /** As over IPC: a copy, after the current turn, in order; nothing once the host has exited. */
  private emitToParent(message: HostMessage): void {
    const copy = structuredClone(message);
    setImmediate(() => {
      if (this.alive) this.dispatch(copy);
    });
  }

  private dispatch(m: HostMessage): void {
    if (m.type === 'heartbeat') return;
    if (m.type === 'batch') for (const one of m.messages) this.dispatch(one);
    else if (m.type === 'inspector') this.emit('inspector', { url: m.url, port: Number(/:(\d+)\//.exec(m.url)?.[1] ?? 0) });
    else this.emit(m.type, m as never);
  }

  private exit(code: number | null, expected: boolean): void {
    if (!this.alive) return;
    this.alive = false;
    this.emit('exit', { code, signal: null, expected });
  }
}
