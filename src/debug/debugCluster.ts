import type { Clock } from '../shared/clock.ts';
import type { LaunchedSim } from '../runtime/index.ts';

// The cluster a debug session's controller runs against, as the reconcile runtime needs it: where
// to connect (a kubeconfig and context), when to start the scenario, and how to let it go.

/** `"cluster"` in the launch configuration; `"view"` reaches the adapter already resolved to a kubeconfig. */
export type ClusterChoice = 'sim' | { context?: string; kubeconfig?: string };

export interface DebugCluster {
  kubeconfig: string;
  context?: string;
  /** Applies the scenario once the controller's caches synced (a simulated cluster's). */
  startScenario?(): void;
  /** Lets it go: a simulated cluster of the session's own stops; a real one is left alone. */
  stop(): Promise<void>;
  /** The session's own simulated cluster, in this process (a check finding replays on it). */
  sim?: LaunchedSim;
}

export interface ClusterRequest {
  cluster: ClusterChoice | undefined;
  /** The scenario file, resolved against the launch configuration's cwd. */
  scenario?: string;
  /** The sim's workload controllers and fake Nodes (see LaunchSimOptions). */
  workloads?: unknown;
  /** Times the scenario's steps: it stands still while the debugger is stopped. */
  scenarioClock: Clock;
  /** What the Debug Console should say about the cluster. */
  print(text: string): void;
}

/** Provides the cluster for one launch (the simulated cluster, or a kubeconfig's). */
export type ClusterFactory = (request: ClusterRequest) => Promise<DebugCluster>;
