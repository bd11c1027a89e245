// Setting up a user's project for Controller Lab: edits to their files, shared by the CLI
// (`controller-lab init`) and the VS Code commands. Plain Node: no vscode here.

export { GoProjectSetupError, setUpGoProject, setupLines } from './goProject/index.ts';
export type { GoProjectSetup, GoProjectSetupOptions, SetupChange } from './goProject/index.ts';
// What a local run of a kubebuilder main needs in its environment (also for check's replay commands).
export { localRunEnv, MANAGER_MANIFEST } from './goProject/localRunEnv.ts';
