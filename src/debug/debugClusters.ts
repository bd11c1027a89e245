import { launchSim } from '../runtime/index.ts';
import type { ClusterRequest, DebugCluster } from './debugCluster.ts';
import { describeObjectsProgress } from '../sim/index.ts';

// The clusters a debug session runs on, for real: a simulated cluster of its own served over HTTPS
// (`"cluster": "sim"`), or an existing one by kubeconfig and context (`{ "kubeconfig", "context" }`,
// and `"view"`, which the VS Code glue resolves to the view's cluster's kubeconfig).

export async function startDebugCluster(request: ClusterRequest): Promise<DebugCluster> {
  const { cluster } = request;
  if (cluster === 'sim' || cluster === undefined) {
    const sim = await launchSim({ scenario: request.scenario, workloads: request.workloads, scenarioClock: request.scenarioClock, onScenarioStepFailed: (problem) => request.print(`Scenario step failed: ${problem}\n`), onObjectsProgress: (p) => request.print(`Scenario: ${describeObjectsProgress(p)}\n`) });
    request.print(`Simulated cluster at ${sim.url} (kubeconfig ${sim.kubeconfigPath}); its scenario waits while the debugger is stopped\n`);
    for (const warning of sim.scenarioWarnings) request.print(`Warning: ${warning}\n`);
    return { kubeconfig: sim.kubeconfigPath, startScenario: () => sim.startScenario(), stop: () => sim.stop(), sim };
  }
  if (typeof cluster !== 'object') throw new Error(`"cluster": ${JSON.stringify(cluster)} is not available here: use "sim" or { "kubeconfig", "context" }`);
  return { kubeconfig: cluster.kubeconfig ?? process.env.KUBECONFIG ?? '', context: cluster.context, stop: () => Promise.resolve() };
}
