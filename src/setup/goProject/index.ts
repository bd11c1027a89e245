import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { letDockerBuildSeeCopy } from './dockerfile.ts';
import { readGoMod, readModuleNeeds, requireShippedModule, tidy } from './goMod.ts';
import { GoCommandFailed, GoNotFound, systemGo, type GoTool } from './goTool.ts';
import { addLaunchConfigurationsTo } from './launchConfig.ts';
import { envPrefix, localRunEnv, localRunNote, MANAGER_MANIFEST } from './localRunEnv.ts';
import { noteConversion } from './conversionNote.ts';
import { wrapMains } from './mainWrap.ts';
import { simulateMakeTest } from './makefileTest.ts';
import { refreshModuleCopy } from './moduleCopy.ts';
import { Project, type SetupChange } from './project.ts';
import { checkSamples } from './sampleCheck.ts';
import { checkSimtestCommand } from './simtestCommand.ts';
import { findShippedModule, MODULE_PATH, ShippedModuleMissing, type ShippedModule } from './shippedModule.ts';
import { STARTER_SCENARIO, writeStarterScenario } from './starterScenario.ts';
import { switchSuites } from './suiteSwap.ts';
import { syncVendor } from './vendorSync.ts';
import { replaceOnceInWorkspace } from './workspace.ts';

// `controller-lab init go [DIR]` and "Controller Lab: Set Up This Go Project": wires a Go project
// (kubebuilder's layout, or any main that creates a controller-runtime manager) to Controller Lab,
// idempotently, and says what it changed. Each concern is a file of its own; this runs them in the
// order they depend on: go.mod must require the module before `go mod tidy`, and tidy must see the
// new imports (or it would drop the require).

export type { SetupChange };

export interface GoProjectSetupOptions {
  dir: string;
  /** Say what would change; write nothing, run nothing but `go mod edit -json`. */
  dryRun?: boolean;
  go?: GoTool;
  shipped?: ShippedModule;
  /** Where `controller-lab` is looked for (PATH, CONTROLLER_LAB); default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** Called as each step starts (for a progress notification). */
  progress?: (step: string) => void;
}

export interface GoProjectSetup {
  changes: SetupChange[];
  /** The commands to run next. */
  next: string[];
  /** The starter scenario, absolute. */
  starterScenario: string;
  /** The main package, as `controller-lab run` takes it: `./cmd`. */
  program: string;
  /** The module's folder, absolute: the one asked for, or the nearest above it with a go.mod (as go finds it). */
  moduleDir: string;
}

/** Why the setup could not run: `usage` when it is the request (not a Go module), else a failing step. */
export class GoProjectSetupError extends Error {
  readonly usage: boolean;

  constructor(message: string, usage: boolean) {
    super(message);
    this.name = 'GoProjectSetupError';
    this.usage = usage;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export async function setUpGoProject(options: GoProjectSetupOptions): Promise<GoProjectSetup> {
  const asked = resolve(options.dir);
  if (!isDirectory(asked)) throw new GoProjectSetupError(`${options.dir}: no such folder`, true);
  // From a folder inside the module (internal/controller), the module it is in, as go finds it.
  const dir = findGoModule(asked);
  if (!dir) throw new GoProjectSetupError(`${options.dir} is not in a Go module (no go.mod there or above): run this in the folder that holds the project's go.mod`, true);
  const go = options.go ?? systemGo();
  const project = new Project(dir, go, options.dryRun === true);
  const step = options.progress ?? (() => {});
  try {
    const shipped = options.shipped ?? findShippedModule();
    const mod = await readGoMod(go, dir);
    if (mod.module === MODULE_PATH) throw new GoProjectSetupError(`${options.dir} is Controller Lab's own Go module, not a project that uses it`, true);

    step("Copying Controller Lab's Go module");
    const copyVersion = mod.requires.get(MODULE_PATH)?.version;
    refreshModuleCopy(project, shipped, copyVersion);
    const goModChanged = await requireShippedModule(project, mod, shipped.version);

    step('Adding controllerlab.Wrap and switching test suites to simtest');
    const main = wrapMains(project);
    const program = main?.program ?? (project.exists('cmd/main.go') ? './cmd' : '.');
    const runEnv = localRunEnv(project.read(MANAGER_MANIFEST));
    switchSuites(project);
    noteConversion(project);
    if (project.editedGoFiles.length) await go.gofmt(project.editedGoFiles, dir);

    const moduleTouched = project.changes.some((c) => c.status === 'changed' && (c.file === 'controller-lab/go' || c.file.endsWith('.go')));
    if (goModChanged || moduleTouched) {
      step('go mod tidy (downloads the modules it needs)');
      await tidy(project, shipped.version, await readModuleNeeds(go, shipped.dir));
      await syncVendor(project);
    }
    // Also when go.mod was already set up: the workspace may have gained a second copy since.
    await replaceOnceInWorkspace(project, options.env ?? process.env);

    step('Makefile, Dockerfile, starter scenario, launch configurations');
    const hasMakeTest = simulateMakeTest(project);
    checkSimtestCommand(project, options.env ?? process.env);
    letDockerBuildSeeCopy(project);
    const runCommand = `${envPrefix(runEnv)}controller-lab run ${program} --sim --scenario ${STARTER_SCENARIO} --until-idle`;
    const note = localRunNote(runEnv);
    writeStarterScenario(project, { command: runCommand, ...(note ? { note } : {}) });
    checkSamples(project);
    addLaunchConfigurationsTo(project, { projectName: basename(mod.module) || basename(dir), program, scenario: STARTER_SCENARIO, env: runEnv, ...(note ? { envNote: note } : {}) });

    // check runs the manager as run does, so it needs the same environment.
    const checkCommand = `${envPrefix(runEnv)}controller-lab check ${program} --scenario ${STARTER_SCENARIO}`;
    // The commands run in the module's folder; asked from one inside it, the way there comes first.
    const way = dir === asked ? '' : wayUp(process.cwd(), dir);
    const next = [...(way ? [`cd ${way}`] : []), hasMakeTest ? 'make test' : 'go test ./...', runCommand, checkCommand];
    return { changes: project.changes, next, starterScenario: project.path(STARTER_SCENARIO), program, moduleDir: dir };
  } catch (err) {
    if (err instanceof GoNotFound || err instanceof GoCommandFailed || err instanceof ShippedModuleMissing) throw new GoProjectSetupError(err.message + editsSoFar(project), false);
    throw err;
  }
}

/** The nearest folder at or above `dir` with a go.mod: the module go runs in there. */
function findGoModule(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'go.mod'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** `cd` to `dir` from `cwd`: `../..` when it is above, else its absolute path ('' when there). */
function wayUp(cwd: string, dir: string): string {
  const up = relative(cwd, dir);
  return up.split(sep).every((p) => p === '..') ? up : dir;
}

/** What a setup that stopped part way had already written, so the project's state is no surprise. */
function editsSoFar(project: Project): string {
  const files = [...new Set(project.changes.filter((c) => c.status === 'changed').map((c) => c.file))];
  if (project.dryRun || files.length === 0) return '';
  return `\nit had changed ${files.join(', ')} before it stopped; run init go again once that works: it keeps what is done and finishes the rest`;
}

/** The report as lines: `file: what changed`, `unchanged: file (why)`, `by hand: file: what to do`. */
export function setupLines(changes: SetupChange[]): string[] {
  return changes.map((c) => (c.status === 'changed' ? `${c.file}: ${c.text}` : c.status === 'unchanged' ? `unchanged: ${c.file} (${c.text})` : `by hand: ${c.file}: ${c.text}`));
}
