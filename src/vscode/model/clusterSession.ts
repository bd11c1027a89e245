import type { Cluster, Failure } from '../../kube/index.ts';
import type { ClientInsight, SimClusterApi } from '../../sim/index.ts';
import type { InformerSession } from './informerSession.ts';

// A cluster the lab is connected to (or trying to): a real one from a kubeconfig context, or the
// simulated one, which is reached the same way — over HTTPS with the kubeconfig its server wrote —
// so both run the very same informer code path. The sim adds its store (for scenarios) and its
// client insight (for the Clients node).

export interface ClusterBackend {
  kind: 'sim' | 'kubeconfig';
  /** Display name: the context name, or "Simulated cluster". */
  name: string;
  cluster: Cluster;
  sim?: SimClusterApi;
  clients?: ClientInsight;
  /** The sim's kubeconfig path (for kubectl and external controllers). */
  kubeconfigPath?: string;
  /** A simulated cluster: restored from the state it kept (a reload, a restart), or new. */
  origin?: { kind: 'restored'; objects: number; stateDir: string } | { kind: 'new'; stateDir?: string };
  dispose(): Promise<void>;
}

export type ClusterPhase = 'connecting' | 'connected' | 'failed';

export class ClusterSession {
  readonly id: string;
  readonly label: string;
  readonly kind: 'sim' | 'kubeconfig';
  phase: ClusterPhase = 'connecting';
  backend: ClusterBackend | undefined;
  failure: Failure | undefined;
  readonly informers = new Map<string, InformerSession>();
  /** Failures to start an informer (unknown resource, 403…), shown as error nodes. */
  readonly informerFailures = new Map<string, Failure>();

  constructor(id: string, label: string, kind: 'sim' | 'kubeconfig') {
    this.id = id;
    this.label = label;
    this.kind = kind;
  }

  get server(): string | undefined {
    return this.backend?.cluster.server;
  }

  syncedCount(): number {
    let n = 0;
    for (const i of this.informers.values()) if (i.phase === 'synced') n++;
    return n;
  }

  async dispose(): Promise<void> {
    for (const informer of this.informers.values()) informer.dispose();
    this.informers.clear();
    const backend = this.backend;
    this.backend = undefined;
    await backend?.dispose();
  }
}
