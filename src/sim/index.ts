// The simulated cluster's public API: the cluster as a library (SimCluster), its HTTPS server, the
// admin endpoint's client, scenarios and the built-in workloads. Everything else in this folder
// (the store, kinds, patches, selectors) is an implementation detail.

export { createSimCluster, SimCluster } from './simCluster.ts';
export type { SimClusterApi, SimClusterOptions, SimStats, SimResourceStats } from './simCluster.ts';
export type { ScenarioRunHandle, ScenarioTarget, SimObjects } from './simObjects.ts';
export type { ClientInfo, ClientInsight, UserWatch, WriteRecord } from './store/types.ts';
export { startSimServer } from './server/simServer.ts';
export { ADMIN_ACTIONS } from './server/adminApi.ts';
export { FAULTS, faultNamed } from './faults/faultTable.ts';
export type { Fault } from './faults/faultTable.ts';
export { FaultArgumentError } from './faults/faultArguments.ts';
export { faultArgsFrom, faultArgsFromFlags, faultHelp, faultUsage } from './faults/faultCalls.ts';
export { adminRequest, endpointFromKubeconfig } from './server/adminClient.ts';
export { parseScenario } from './scenario/scenarioParser.ts';
export { checkScenario, SCENARIO_USER_AGENT } from './scenario/scenarioRunner.ts';
export { describeObjectsProgress } from './scenario/objectsProgress.ts';
export type { ObjectsProgress } from './scenario/objectsProgress.ts';
export { scenarioAdmission } from './admission/index.ts';
export { readScenarioFile, ScenarioFileNotFound, ScenarioFileUnreadable } from './scenario/scenarioFile.ts';
export { ScenarioError } from './scenario/scenarioError.ts';
export type { ScenarioAction, ScheduledStep } from './scenario/scenarioTypes.ts';
export { parseWorkloadsField } from './scenario/scenarioWorkloads.ts';
export { MAX_SCENARIO_TIME_MS, parseDuration } from './vocabulary/duration.ts';
export { workloadOptions } from './workloads/index.ts';
export type { WorkloadOptions } from './workloads/index.ts';
export { describeAction, followScenario, printScenarioProgress } from './scenario/scenarioProgress.ts';
export type { ScenarioProgress } from './scenario/scenarioProgress.ts';
export { processHeap, refusedPastShare } from './store/heapQuota.ts';
