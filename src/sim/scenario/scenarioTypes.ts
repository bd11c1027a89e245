import type { KubeObject } from '../../shared/k8s.ts';
import type { WorkloadOptions } from '../workloads/index.ts';

// A scenario, validated: the initial objects and a timeline of steps with absolute times.
//
// File format (YAML):
//   seed: 42                      # uids, generated names and random picks repeat for a seed
//   workloads: { nodes: 3 }       # optional: workload controllers, scheduler, fake Nodes (or `true`)
//   include: [ ../config/crd/bases, ../config/samples ]   # YAML files and folders (scenarioIncludes.ts)
//   objects: [ <Kubernetes objects> ]   # applied at start; namespaces created when missing
//   steps:
//     - at: 2s                    # from the start; or `after: 500ms` (from the previous step)
//       patch: { target: {kind: Deployment, namespace: shop, name: web}, patch: {spec: {replicas: 3}} }
//     - after: 1s
//       repeat: { count: 50, over: 5s, step: { patch: { target: {kind: ConfigMap, namespace: shop, name: "${random}"}, patch: {data: {n: "${i}"}} } } }
// Actions: create, apply, update, patch, delete, scale, label, dropWatches, compact, delayEvents,
// withholdEvents, releaseEvents, withholdBookmarks, releaseBookmarks, conflictNextUpdate, restart,
// errorRate. In strings, `${i}` is the repeat index, `${random}` (as a target name) a random existing
// object of the target's kind, `${rand}` a random integer.

export interface TargetRef {
  apiVersion?: string;
  kind: string;
  namespace?: string;
  name: string;
}

export type ScenarioAction =
  | { type: 'create' | 'apply' | 'update'; object: KubeObject }
  | { type: 'patch'; target: TargetRef; patchType: 'merge' | 'json' | 'strategic'; patch: unknown }
  | { type: 'delete'; target: TargetRef; propagationPolicy?: 'Foreground' | 'Background' | 'Orphan' }
  | { type: 'scale'; target: TargetRef; replicas: number }
  | { type: 'label'; target: TargetRef; labels: Record<string, string | null> }
  | { type: 'dropWatches'; resource?: string }
  | { type: 'compact'; resourceVersion?: number }
  | { type: 'delayEvents'; ms: number }
  | { type: 'withholdEvents' | 'releaseEvents' | 'withholdBookmarks' | 'releaseBookmarks' }
  | { type: 'conflictNextUpdate'; target: TargetRef }
  | { type: 'restart'; dropHistory: boolean }
  | { type: 'errorRate'; rate: number; code: 429 | 500; retryAfterSeconds?: number };

export interface ScheduledStep {
  /** ms from the scenario's start. */
  at: number;
  action: ScenarioAction;
  /** For `${i}`: the repeat index (0 outside repeats). */
  index: number;
  /** Where it came from, for error reports: `steps[3]`. */
  source: string;
  line: number;
}

export interface Scenario {
  seed: number;
  /** Run the workload simulation (controllers, scheduler, fake Nodes) with these settings. */
  workloads?: Partial<WorkloadOptions>;
  /** `file`: the included file it came from (undefined: the scenario itself, at `source`). */
  objects: { object: KubeObject; line: number; source: string; file?: string }[];
  steps: ScheduledStep[];
}
