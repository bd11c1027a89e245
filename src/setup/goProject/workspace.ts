import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { readGoMod, REPLACE_PATH } from './goMod.ts';
import type { Project } from './project.ts';
import { MODULE_PATH } from './shippedModule.ts';

// A project in a go.work workspace: go builds there take every member's replace, and two members
// that replace Controller Lab's module with copies of their own conflict, so every build in the
// workspace fails ("conflicting replacements") until go.work replaces the module once.

interface GoWorkJson {
  Use?: { DiskPath: string }[] | null;
  Replace?: { Old: { Path: string } }[] | null;
}

/** The go.work the go command uses in `dir`: $GOWORK, else the nearest go.work above. */
export function findGoWork(dir: string, env: NodeJS.ProcessEnv): string | undefined {
  const set = env.GOWORK;
  if (set === 'off') return undefined;
  if (set) return isAbsolute(set) ? set : resolve(dir, set);
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'go.work'))) return join(at, 'go.work');
    if (dirname(at) === at) return undefined;
  }
}

/** Makes go.work replace the module once when its members replace it with different copies. */
export async function replaceOnceInWorkspace(project: Project, env: NodeJS.ProcessEnv): Promise<void> {
  const work = findGoWork(project.dir, env);
  if (!work || !existsSync(work)) return;
  const workDir = dirname(work);
  const json = JSON.parse(await project.go.go(['work', 'edit', '-json', work], workDir)) as GoWorkJson;
  if ((json.Replace ?? []).some((r) => r.Old.Path === MODULE_PATH)) return;
  // The project's own replace (a clone it chose, kept), else the copy's (not yet written in a dry run).
  const ownReplace = (await readGoMod(project.go, project.dir)).replaces.get(MODULE_PATH);
  if (ownReplace?.includes('@')) return;
  const own = resolve(project.dir, ownReplace ?? REPLACE_PATH);
  const copies = new Set<string>([own]);
  for (const use of json.Use ?? []) {
    const member = resolve(workDir, use.DiskPath);
    if (member === project.dir || !existsSync(join(member, 'go.mod'))) continue;
    const replaced = (await readGoMod(project.go, member)).replaces.get(MODULE_PATH);
    if (replaced && !replaced.includes('@')) copies.add(resolve(member, replaced));
  }
  if (copies.size < 2) return;
  const target = relative(workDir, own).startsWith('.') ? relative(workDir, own) : `./${relative(workDir, own)}`;
  if (!project.dryRun) await project.go.go(['work', 'edit', `-replace=${MODULE_PATH}=${target}`, work], workDir);
  project.changed(relative(project.dir, work) || 'go.work', `replace ${MODULE_PATH} => ${target} (${copies.size} modules of the workspace replace it with copies of their own, which go refuses in a workspace)`);
}
