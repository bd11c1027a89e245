import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Project } from './project.ts';
import type { ShippedModule } from './shippedModule.ts';

// The project's own copy of Controller Lab's Go module, in controller-lab/go, which go.mod's replace
// points at. Project-local on purpose: a replace to an absolute path would break the build on every
// other machine (a teammate's, CI, a docker build). A copy is what the module needs to build: its
// go.mod, go.sum and non-test sources; tests, testdata and examples stay behind. The copy's go.mod
// is the module's minimum.mod: the lowest versions it was verified on, so that the project's
// controller-runtime, k8s.io and go directive stay where they are (go picks the highest required).

export const COPY_DIR = 'controller-lab/go';
export const COPY_README = 'controller-lab/README.md';

const SKIPPED_DIRS = new Set(['testdata', 'examples']);

/** go.mod, go.sum and non-test Go sources: what the module builds from (a checkout may hold more). */
function isModuleFile(path: string): boolean {
  const name = path.split(sep).pop() ?? '';
  return path === 'go.mod' || path === 'go.sum' || (name.endsWith('.go') && !name.endsWith('_test.go') && !name.startsWith('.'));
}

/** Every file of the module a copy holds, by path relative to the module (with `/`). */
export function moduleFiles(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        // As the go command does, directories starting with `.` or `_` are no part of the module.
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.') && !entry.name.startsWith('_')) walk(path);
      } else if (entry.isFile() && isModuleFile(relative(dir, path))) {
        files.set(relative(dir, path).split(sep).join('/'), readFileSync(path));
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return files;
}

/**
 * The files a copy of the shipped module holds: minimum.mod and minimum.sum (the module's
 * requirements lowered to what it was verified on) as its go.mod and go.sum, when present.
 */
export function shippedModuleFiles(dir: string): Map<string, Buffer> {
  const files = moduleFiles(dir);
  for (const [lowest, as] of [['minimum.mod', 'go.mod'], ['minimum.sum', 'go.sum']] as const) {
    if (existsSync(join(dir, lowest))) files.set(as, readFileSync(join(dir, lowest)));
  }
  return files;
}

export interface CopyDifference {
  added: string[];
  changed: string[];
  removed: string[];
}

/** What writing `wanted` into `target` would change. */
export function copyDifference(wanted: Map<string, Buffer>, target: string): CopyDifference {
  const present = moduleFiles(target);
  const added = [...wanted.keys()].filter((f) => !present.has(f));
  const changed = [...wanted.keys()].filter((f) => present.has(f) && !present.get(f)!.equals(wanted.get(f)!));
  const removed = [...present.keys()].filter((f) => !wanted.has(f));
  return { added, changed, removed };
}

export function isSame(d: CopyDifference): boolean {
  return d.added.length + d.changed.length + d.removed.length === 0;
}

/** Makes `target` hold exactly `wanted`. */
export function writeCopy(wanted: Map<string, Buffer>, target: string, d: CopyDifference): void {
  for (const f of [...d.added, ...d.changed]) {
    mkdirSync(dirname(join(target, f)), { recursive: true });
    writeFileSync(join(target, f), wanted.get(f)!);
  }
  for (const f of d.removed) rmSync(join(target, f));
  removeEmptyFolders(target);
}

function removeEmptyFolders(dir: string): boolean {
  let empty = true;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && removeEmptyFolders(join(dir, entry.name))) rmSync(join(dir, entry.name), { recursive: true });
    else empty = false;
  }
  return empty;
}

export const COPY_README_TEXT = `# controller-lab/

\`go/\` is a copy of Controller Lab's Go module, \`github.com/controller-lab/controller-lab/go\`
(packages \`controllerlab\`, for \`controllerlab.Wrap(mgr)\` in cmd/main.go, and \`simtest\`, the
simulated cluster the test suites start). go.mod points the module here with a \`replace\`, so the
project builds the same on every machine, in CI and in \`docker build\`. Keep it in version control.

\`controller-lab init go\` wrote it and refreshes it when Controller Lab is updated. Once the module
is published, the \`replace\` line in go.mod and this \`go/\` folder can go.

\`scenario.yaml\` is a scenario for the simulated cluster: the project's CRDs, RBAC and samples.
`;

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

/**
 * Makes the project's copy the shipped module (a first copy, or a refresh when Controller Lab was
 * updated), and writes controller-lab/README.md when missing. `copyVersion`: the version go.mod
 * requires now (`v0.1.0`), if any.
 */
export function refreshModuleCopy(project: Project, shipped: ShippedModule, copyVersion: string | undefined): void {
  const wanted = shippedModuleFiles(shipped.dir);
  const target = project.path(COPY_DIR);
  const first = !project.exists(COPY_DIR);
  const d = copyDifference(wanted, target);
  const packages = [...new Set([...wanted.keys()].filter((f) => f.includes('/')).map((f) => f.split('/')[0]))].sort().join(', ');
  const module = `Controller Lab's Go module v${shipped.version}`;
  if (isSame(d)) {
    project.unchanged(COPY_DIR, module);
  } else {
    if (!project.dryRun) writeCopy(wanted, target, d);
    const was = copyVersion && copyVersion !== `v${shipped.version}` ? ` (was ${copyVersion})` : '';
    const files = [d.changed.length && count(d.changed.length, 'file') + ' changed', d.added.length && `${d.added.length} added`, d.removed.length && `${d.removed.length} removed`].filter(Boolean).join(', ');
    project.changed(COPY_DIR, first ? `a copy of ${module} (packages ${packages})` : `refreshed to ${module}${was}: ${files}`);
  }
  if (!project.exists(COPY_README)) project.write(COPY_README, COPY_README_TEXT, 'what controller-lab/ is and when it can go');
}
