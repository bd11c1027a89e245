import type { KubeObject } from '../../shared/k8s.ts';
import type { WorkloadOptions } from '../workloads/index.ts';
import type { ScenarioProblem } from './scenarioError.ts';

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
//     - after: 1s
//       drop-watches: { resource: deployments.apps }   # a fault, by its name in the fault table
// Actions: create, apply, update, patch, delete, scale, label, and every fault of the fault table
// (src/sim/faults/faultTable.ts: drop-watches, compact, delay-events, conflict, http-faults,
// restart …) with its arguments. In strings, `${i}` is the repeat index, `${random}` (as a target's
// or a fault's name) a random existing object of its kind, `${rand}` a random integer.

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
  /** A fault of the fault table, with its arguments as the table's types read them. */
  | { type: 'fault'; fault: string; args: Record<string, unknown> };

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
  /** What still runs but is written in an old way (a fault's former name), each with its line. */
  warnings: ScenarioProblem[];
  /** Run the workload simulation (controllers, scheduler, fake Nodes) with these settings. */
  workloads?: Partial<WorkloadOptions>;
  /** `file`: the included file it came from (undefined: the scenario itself, at `source`). */
  objects: { object: KubeObject; line: number; source: string; file?: string }[];
  steps: ScheduledStep[];
}
