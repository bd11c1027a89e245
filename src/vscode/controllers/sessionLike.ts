import type { Probe } from '../../informer/index.ts';
import type { ControllerShape, EventFate, QueueSnapshot, ReconcileRecord } from '../../runtime/index.ts';

/** The slice of a ControllerSession the views listen to (the runtime's TypedEmitter). */
export interface SessionLike {
  on(event: 'ready', l: (p: { controller: ControllerShape }) => void): { dispose(): void };
  on(event: 'synced', l: (p: Record<string, never>) => void): { dispose(): void };
  on(event: 'reconcileStart' | 'reconcileEnd', l: (p: { record: ReconcileRecord }) => void): { dispose(): void };
  on(event: 'queue', l: (p: { snapshot: QueueSnapshot }) => void): { dispose(): void };
  on(event: 'probe', l: (p: { probe: Probe }) => void): { dispose(): void };
  on(event: 'idle', l: (p: { idle: boolean }) => void): { dispose(): void };
  on(event: 'fatal', l: (p: { phase: string; message: string }) => void): { dispose(): void };
  on(event: 'exit', l: (p: { code: number | null; signal: string | null }) => void): { dispose(): void };
  on(event: 'fates', l: (p: { count: number; decode(): EventFate[] }) => void): { dispose(): void };
  on(event: 'perturbed', l: (p: { what: string; resourceVersion: string; at: number }) => void): { dispose(): void };
  readonly controller?: ControllerShape | undefined;
  /** What runs the controller: a Go program reports its cache's events differently (see probeTimelineEvent). */
  readonly target?: { readonly language: string };
  /** Every controller of the session (a Go manager runs several in one process). */
  readonly controllers?: ControllerShape[];
  /** The kubeconfig of the cluster it runs on. */
  readonly clusterKubeconfig?: string;
}
