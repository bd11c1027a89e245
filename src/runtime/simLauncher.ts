import { dirname, resolve } from 'node:path';
import { checkScenario, createSimCluster, readScenarioFile, scenarioAdmission, startSimServer, parseWorkloadsField, type ObjectsProgress } from '../sim/index.ts';
import type { SimClusterApi } from '../sim/index.ts';
import type { Clock } from '../shared/clock.ts';
import { ApiError } from '../shared/apiError.ts';
import type { GroupVersionResource, KubeObject } from '../shared/k8s.ts';

// `--sim` / `cluster: "sim"`: a simulated cluster in this process, served over HTTPS so the
// controller host connects to it exactly as it would to a real API server (kubeconfig + token).

export interface LaunchedSim {
  cluster: SimClusterApi;
  url: string;
  kubeconfigPath: string;
  /**
   * Applies the scenario's objects and starts its clock. Called once the controller's caches have
   * synced, so step times count from a running controller (not from however long start-up took).
   */
  startScenario(): void;
  /** Resolves when the scenario's last step ran (at once without a scenario). */
  scenarioDone: Promise<void>;
  scenarioFinished(): boolean;
  /** What in the scenario runs but may surprise (`file:line:col: message`): said before the run. */
  scenarioWarnings: readonly string[];
  stop(): Promise<void>;
}

export interface LaunchSimOptions {
  scenario?: string;
  /**
   * The workload simulation (Deployment/ReplicaSet/StatefulSet/DaemonSet/Job controllers, a
   * scheduler, fake Nodes): `true`, or `{ nodes, podStartDelay, jobPodDuration, podFailureRate }`.
   */
  workloads?: unknown;
  /** Times the scenario's steps (default: the cluster's clock); the debugger's stops while it is stopped. */
  scenarioClock?: Clock;
  /** Times the workload simulation's waits, e.g. a Pod's start delay (default: the cluster's clock). */
  workloadClock?: Clock;
  /** The resourceVersion the cluster's first write comes after (default 0). */
  resourceVersionsAfter?: number;
  /** Told of each scenario step that failed (`file:line:col: path: message`): the scenario goes on. */
  onScenarioStepFailed?: (problem: string) => void;
  /** Told about once a second while a large scenario's objects are read, then applied. */
  onObjectsProgress?: (progress: ObjectsProgress) => void;
}

/**
 * What an operator's installation puts in a cluster before the operator runs, in the order it
 * must: CRDs (a controller-runtime manager cannot sync while a kind it watches is not served), and
 * the ServiceAccount and RBAC a controller run `--as` its ServiceAccount needs to list anything
 * (with the namespaces they live in).
 */
const INSTALLED_FIRST: { apiVersion: string; kind: string; resource: string; namespaced: boolean }[] = [
  { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', resource: 'customresourcedefinitions', namespaced: false },
  { apiVersion: 'v1', kind: 'ServiceAccount', resource: 'serviceaccounts', namespaced: true },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', resource: 'clusterroles', namespaced: false },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', resource: 'roles', namespaced: true },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', resource: 'clusterrolebindings', namespaced: false },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', resource: 'rolebindings', namespaced: true },
];

/** Creates what the scenario's installation holds (and the namespaces it lands in); what already exists is left as it is. */
function install(cluster: SimClusterApi, objects: readonly { object: KubeObject }[]): void {
  const createIfMissing = (resource: GroupVersionResource, namespace: string, object: KubeObject) => {
    try {
      cluster.create(resource, namespace, structuredClone(object));
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    }
  };
  for (const { apiVersion, kind, resource, namespaced } of INSTALLED_FIRST) {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    for (const { object } of objects) {
      if (object.apiVersion !== apiVersion || object.kind !== kind) continue;
      const namespace = namespaced ? (object.metadata.namespace ?? 'default') : '';
      if (namespace) {
        const declared = objects.find((o) => o.object.kind === 'Namespace' && o.object.metadata.name === namespace)?.object;
        createIfMissing(NAMESPACES, '', declared ?? { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
      }
      createIfMissing({ group: group!, version: version!, resource }, namespace, object);
    }
  }
}

const NAMESPACES: GroupVersionResource = { group: '', version: 'v1', resource: 'namespaces' };

export async function launchSim(options: LaunchSimOptions = {}): Promise<LaunchedSim> {
  // Read and check the scenario first (every problem, the files it includes, its kinds against the
  // built-in ones and its CRDs), so a bad file fails before anything listens or a program is built.
  const scenarioText = options.scenario ? await readScenarioFile(options.scenario) : undefined;
  const scenarioOptions = options.scenario ? { fileName: options.scenario, baseDir: dirname(resolve(options.scenario)) } : {};
  const workloads = parseWorkloadsField(options.workloads ?? false);
  if (workloads.problems.length) throw new Error(`workloads: ${workloads.problems.map(([field, message]) => (field ? `${field}: ${message}` : message)).join('; ')}`);
  const cluster = createSimCluster({ ...(options.workloadClock ? { workloadClock: options.workloadClock } : {}), ...(options.resourceVersionsAfter ? { resourceVersionsAfter: options.resourceVersionsAfter } : {}) });
  let parsed: ReturnType<typeof checkScenario> | undefined;
  try {
    parsed = scenarioText === undefined ? undefined : checkScenario(cluster, scenarioText, { ...scenarioOptions, onObjectsProgress: options.onObjectsProgress });
  } catch (err) {
    await cluster.close();
    throw err;
  }
  if (workloads.options) cluster.enableWorkloads(workloads.options);
  // The scenario's CRDs and RBAC are there before the controller starts, as an operator's are
  // installed before it runs (the controller would never sync, and so never start the scenario,
  // without them). The scenario applies them again (unchanged) when it starts.
  install(cluster, parsed?.objects ?? []);
  const server = await startSimServer(cluster);
  let finished = scenarioText === undefined;
  let stopScenario = () => {};
  let settle: { resolve: () => void; reject: (e: unknown) => void } = { resolve: () => {}, reject: () => {} };
  const scenarioDone = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  scenarioDone.catch(() => {});
  // The scenario's run starts in startScenario; without one there is nothing to wait for.
  if (scenarioText === undefined) settle.resolve();
  let started = false;
  const startScenario = () => {
    if (started || scenarioText === undefined) return;
    started = true;
    try {
      // Its writes go through the webhooks the program installed, as `kubectl apply` would.
      const run = cluster.loadScenario(scenarioText, { ...scenarioOptions, checked: parsed, onObjectsProgress: options.onObjectsProgress, admit: scenarioAdmission(cluster), ...(options.onScenarioStepFailed ? { onStepFailed: options.onScenarioStepFailed } : {}), ...(options.scenarioClock ? { clock: options.scenarioClock } : {}) });
      stopScenario = () => run.stop();
      run.done.then(settle.resolve, settle.reject);
    } catch (err) {
      settle.reject(err);
    }
  };
  void scenarioDone.then(
    () => (finished = true),
    () => (finished = true),
  );
  return {
    cluster,
    url: server.url,
    kubeconfigPath: server.kubeconfigPath,
    startScenario,
    scenarioDone,
    scenarioFinished: () => finished,
    scenarioWarnings: (parsed?.warnings ?? []).map((w) => `${w.file ?? scenarioOptions.fileName ?? 'scenario.yaml'}:${w.line}:${w.column}: ${w.path ? `${w.path}: ` : ''}${w.message}`),
    stop: async () => {
      stopScenario();
      await server.stop();
      await cluster.close();
    },
  };
}
