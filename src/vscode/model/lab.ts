import { createSharedInformer, dropManagedFields } from '../../informer/index.ts';
import type { Clock } from '../../shared/clock.ts';
import { describeFailure } from '../../kube/index.ts';
import type { Failure } from '../../kube/index.ts';
import { TimelineFeed } from './timelineFeed.ts';
import { ClusterSession } from './clusterSession.ts';
import type { ClusterBackend } from './clusterSession.ts';
import { InformerSession, informerName } from './informerSession.ts';
import type { InformerChange, InformerSpec } from './informerSession.ts';
import { DEFAULT_INFORMER_POLICY, overLimitMessage } from './informerPolicy.ts';
import type { InformerPolicy } from './informerPolicy.ts';
import { RateMeter } from './rateMeter.ts';

// Everything the views show, without VS Code: the clusters, their informers, the timeline's feed.
// Commands call into it; the tree, the documents, the timeline and the status bar listen to it.

export interface ConnectTarget {
  kind: 'sim' | 'kubeconfig';
  /** For kubeconfig: the context ('' = current). */
  context?: string;
  kubeconfig?: string;
}

export type BackendFactory = (target: ConnectTarget) => Promise<ClusterBackend>;

export type LabChange =
  | { kind: 'clusters' }
  | { kind: 'cluster'; cluster: ClusterSession }
  | { kind: 'informer'; informer: InformerSession; change: InformerChange };

export function clusterIdOf(target: ConnectTarget): string {
  return target.kind === 'sim' ? 'sim' : `ctx:${target.kubeconfig ?? ''}:${target.context ?? ''}`;
}

export class Lab {
  readonly clusters = new Map<string, ClusterSession>();
  /** Watch events and reconcile spans, for the timeline. */
  readonly timeline: TimelineFeed;
  readonly clock: Clock;
  readonly eventRate: RateMeter;
  private readonly createBackend: BackendFactory;
  private readonly informerPolicy: () => InformerPolicy;
  private readonly warn: (message: string) => void;
  private listeners: ((change: LabChange) => void)[] = [];

  constructor(options: {
    clock: Clock;
    createBackend: BackendFactory;
    maxTimelineEvents: number;
    /** Read when an informer starts (settings). */
    informerPolicy?: () => InformerPolicy;
    /** Shows a warning to the user (e.g. an informer over its soft limit). */
    warn?: (message: string) => void;
  }) {
    this.clock = options.clock;
    this.createBackend = options.createBackend;
    this.timeline = new TimelineFeed(options.maxTimelineEvents);
    this.informerPolicy = options.informerPolicy ?? (() => DEFAULT_INFORMER_POLICY);
    this.warn = options.warn ?? (() => {});
    this.eventRate = new RateMeter(options.clock);
  }

  onDidChange(listener: (change: LabChange) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  private fire(change: LabChange): void {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch {
        // A failing view must not stop the others from updating.
      }
    }
  }

  /**
   * Connects (or reconnects) to a cluster. Resolves with the session even on failure: the failure
   * is kept on the session (and shown as an error node); it is also thrown to the caller to report.
   */
  async connect(target: ConnectTarget, label: string): Promise<ClusterSession> {
    const id = clusterIdOf(target);
    const existing = this.clusters.get(id);
    if (existing?.phase === 'connected') return existing;
    if (existing) await this.disconnect(id);
    const session = new ClusterSession(id, label, target.kind);
    this.clusters.set(id, session);
    this.fire({ kind: 'clusters' });
    try {
      session.backend = await this.createBackend(target);
      session.phase = 'connected';
      this.fire({ kind: 'cluster', cluster: session });
      return session;
    } catch (err) {
      session.phase = 'failed';
      session.failure = describeFailure(err);
      this.fire({ kind: 'cluster', cluster: session });
      throw err;
    }
  }

  async disconnect(clusterId: string): Promise<void> {
    const session = this.clusters.get(clusterId);
    if (!session) return;
    this.clusters.delete(clusterId);
    this.fire({ kind: 'clusters' });
    await session.dispose();
  }

  /** Starts an informer (or returns the running one with the same spec). */
  startInformer(clusterId: string, spec: InformerSpec): InformerSession {
    const cluster = this.clusters.get(clusterId);
    if (!cluster?.backend) throw new Error(`cluster ${clusterId} is not connected`);
    const name = informerName(spec);
    const running = cluster.informers.get(name);
    if (running && running.phase !== 'stopped') return running;
    running?.dispose();
    cluster.informerFailures.delete(name);
    const policy = this.informerPolicy();
    const informer = createSharedInformer({
      name,
      listerWatcher: cluster.backend.cluster.listerWatcher(spec.resource, {
        namespace: spec.resource.namespaced ? spec.namespace : '',
        labelSelector: spec.labelSelector || undefined,
      }),
      clock: this.clock,
      labelSelector: spec.labelSelector || undefined,
      // The extension host also runs the editor's other extensions: a 50,000-object list is taken in
      // 10 ms slices, not in one multi-second block.
      sliceMs: 10,
      ...(policy.keepManagedFields ? {} : { transform: dropManagedFields }),
    });
    const session = new InformerSession({
      clusterId,
      spec,
      informer,
      clock: this.clock,
      clusterLabel: cluster.label,
      emitTimeline: (event) => this.timeline.events.push(event),
      managedFieldsDropped: !policy.keepManagedFields,
      maxObjects: policy.maxObjects,
      onOverLimit: (objects, listing) => this.warn(overLimitMessage(name, cluster.label, objects, policy.maxObjects, listing)),
    });
    informer.onProbe((p) => {
      if (p.kind === 'event' && p.type !== 'BOOKMARK') this.eventRate.add();
    });
    session.onDidChange((change) => this.fire({ kind: 'informer', informer: session, change }));
    cluster.informers.set(name, session);
    session.start();
    this.fire({ kind: 'cluster', cluster });
    return session;
  }

  /** Records a failure to start an informer so the tree shows it next to the working ones. */
  recordInformerFailure(clusterId: string, name: string, err: unknown): Failure {
    const failure = describeFailure(err);
    const cluster = this.clusters.get(clusterId);
    if (cluster) {
      cluster.informerFailures.set(name, failure);
      this.fire({ kind: 'cluster', cluster });
    }
    return failure;
  }

  stopInformer(informerId: string): void {
    const found = this.findInformer(informerId);
    if (!found) return;
    found.informer.dispose();
    found.cluster.informers.delete(found.informer.name);
    this.fire({ kind: 'cluster', cluster: found.cluster });
  }

  findInformer(informerId: string): { cluster: ClusterSession; informer: InformerSession } | undefined {
    for (const cluster of this.clusters.values()) {
      for (const informer of cluster.informers.values()) if (informer.id === informerId) return { cluster, informer };
    }
    return undefined;
  }

  /** Every informer of every cluster. */
  *informers(): Generator<InformerSession> {
    for (const cluster of this.clusters.values()) yield* cluster.informers.values();
  }

  simCluster(): ClusterSession | undefined {
    for (const c of this.clusters.values()) if (c.kind === 'sim') return c;
    return undefined;
  }

  async dispose(): Promise<void> {
    const ids = [...this.clusters.keys()];
    for (const id of ids) await this.disconnect(id);
    this.listeners = [];
  }
}
