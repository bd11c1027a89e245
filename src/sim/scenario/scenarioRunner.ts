import type { ScenarioRunHandle, SimCluster } from '../simCluster.ts';

// TODO(H4): replaced by the real runner in the next commit.
export function startScenario(_cluster: SimCluster, _yamlText: string, _options: { fileName?: string }): ScenarioRunHandle {
  throw new Error('scenarios are not implemented yet');
}
