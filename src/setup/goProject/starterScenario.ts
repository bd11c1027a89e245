import type { Project } from './project.ts';

// The project's first scenario: the simulated cluster starts with what the project itself holds —
// its CRDs, its RBAC and its samples, read from config/ each time (so they follow `make manifests`).

export const STARTER_SCENARIO = 'controller-lab/scenario.yaml';

export interface StarterScenarioInput {
  /** The project's config folders, relative to the project (`config/crd/bases`, …), that the scenario includes. */
  includes: string[];
  /** The command that runs the manager on it, and why it sets what it sets. */
  runCommand: string;
  runNote?: string;
}

/** The kubebuilder folders a starter scenario includes, when the project has them. */
export const STARTER_INCLUDES = ['config/crd/bases', 'config/rbac', 'config/samples'];

export function starterScenarioText({ includes, runCommand, runNote }: StarterScenarioInput): string {
  const lines = [
    "# Controller Lab's starter scenario for this project, written by `controller-lab init go`: the",
    '# simulated cluster starts with the CRDs, RBAC and samples of config/, read from there each time.',
    '# Run the manager on it:',
    `#   ${runCommand}`,
    ...(runNote ? [`#   (${runNote})`] : []),
    '# or debug it in VS Code with the "(simulated cluster)" launch configurations.',
    '# Add objects and timed steps (patch, scale, delete, faults) below; paths are relative to this file.',
    'seed: 1',
  ];
  if (includes.length) lines.push('include:', ...includes.map((p) => `  - ../${p}`));
  return `${lines.join('\n')}\n`;
}

/** Writes the starter scenario unless there is one. */
export function writeStarterScenario(project: Project, run: { command: string; note?: string }): void {
  if (project.exists(STARTER_SCENARIO)) {
    project.unchanged(STARTER_SCENARIO, 'there is one already');
    return;
  }
  // config/crd/bases is written by `make manifests`: a kubebuilder project (config/crd) has it after the first one.
  const includes = STARTER_INCLUDES.filter((d) => project.isDir(d) || (d === 'config/crd/bases' && project.isDir('config/crd')));
  const text = starterScenarioText({ includes, runCommand: run.command, ...(run.note ? { runNote: run.note } : {}) });
  const later = includes.filter((d) => !project.isDir(d)).map((d) => `; ${d} comes with make manifests`).join('');
  project.write(STARTER_SCENARIO, text, includes.length ? `starter scenario (includes ${includes.join(', ')}${later})` : 'starter scenario (no config/ folders to include)');
}
