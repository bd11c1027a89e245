import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createSimCluster } from '../sim/simCluster.ts';
import type { SimClusterApi } from '../sim/simCluster.ts';
import { startSimServer } from '../sim/server/simServer.ts';

// `--sim` / `cluster: "sim"`: a simulated cluster in this process, served over HTTPS so the
// controller host connects to it exactly as it would to a real API server (kubeconfig + token).

export interface LaunchedSim {
  cluster: SimClusterApi;
  url: string;
  kubeconfigPath: string;
  /** Resolves when the scenario's last step ran (at once without a scenario). */
  scenarioDone: Promise<void>;
  scenarioFinished(): boolean;
  stop(): Promise<void>;
}

export async function launchSim(options: { scenario?: string } = {}): Promise<LaunchedSim> {
  // Read and validate the scenario first, so a bad file fails before anything listens.
  const scenarioText = options.scenario ? await readFile(resolve(options.scenario), 'utf8') : undefined;
  const cluster = createSimCluster();
  const server = await startSimServer(cluster);
  let finished = scenarioText === undefined;
  let scenarioDone: Promise<void> = Promise.resolve();
  let stopScenario = () => {};
  if (scenarioText !== undefined) {
    try {
      const run = cluster.loadScenario(scenarioText, { fileName: options.scenario });
      stopScenario = () => run.stop();
      scenarioDone = run.done.finally(() => {
        finished = true;
      });
      scenarioDone.catch(() => {});
    } catch (err) {
      await server.stop();
      await cluster.close();
      throw err;
    }
  }
  return {
    cluster,
    url: server.url,
    kubeconfigPath: server.kubeconfigPath,
    scenarioDone,
    scenarioFinished: () => finished,
    stop: async () => {
      stopScenario();
      await server.stop();
      await cluster.close();
    },
  };
}
