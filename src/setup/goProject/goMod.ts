import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { GoTool } from './goTool.ts';
import type { Project } from './project.ts';
import { NEEDS_WHY, needsText, raisesFor, raisesText } from './moduleNeeds.ts';
import { MODULE_PATH } from './shippedModule.ts';

// go.mod, read and changed through `go mod edit` (never by hand): the require of Controller Lab's
// module at the product's version, the replace to the project's copy, and what `go mod tidy` then
// moved (only a project below the copy's minimum.mod versions, controller-runtime v0.22 → v0.23.0).

export const REPLACE_PATH = './controller-lab/go';

export interface GoMod {
  module: string;
  go?: string;
  /** Module path → version. */
  requires: Map<string, { version: string; indirect: boolean }>;
  /** Module path → what replaces it (a path or `module@version`). */
  replaces: Map<string, string>;
}

interface GoModJson {
  Module?: { Path?: string };
  Go?: string;
  Require?: { Path: string; Version: string; Indirect?: boolean }[] | null;
  Replace?: { Old: { Path: string; Version?: string }; New: { Path: string; Version?: string } }[] | null;
}

/** The project's go.mod in `dir`, or another go.mod-format `file` there. */
export async function readGoMod(go: GoTool, dir: string, file?: string): Promise<GoMod> {
  const json = JSON.parse(await go.go(['mod', 'edit', '-json', ...(file ? [file] : [])], dir)) as GoModJson;
  return {
    module: json.Module?.Path ?? '',
    ...(json.Go ? { go: json.Go } : {}),
    requires: new Map((json.Require ?? []).map((r) => [r.Path, { version: r.Version, indirect: r.Indirect === true }])),
    replaces: new Map((json.Replace ?? []).map((r) => [r.Old.Path, r.New.Version ? `${r.New.Path}@${r.New.Version}` : r.New.Path])),
  };
}

/** What the module asks of a project: the go.mod a copy of it gets (minimum.mod, see shippedModuleFiles). */
export async function readModuleNeeds(go: GoTool, shippedDir: string): Promise<GoMod> {
  return readGoMod(go, shippedDir, existsSync(join(shippedDir, 'minimum.mod')) ? 'minimum.mod' : 'go.mod');
}

/** Whether go.mod already requires the module at `version` and replaces it with the project's copy. */
export function requiresShipped(mod: GoMod, version: string): boolean {
  return mod.requires.get(MODULE_PATH)?.version === `v${version}` && mod.replaces.get(MODULE_PATH) === REPLACE_PATH;
}

/** A replace of the module the project chose itself (a clone of Controller Lab), which init go keeps. */
function ownReplace(mod: GoMod): string | undefined {
  const to = mod.replaces.get(MODULE_PATH);
  return to && to !== REPLACE_PATH ? to : undefined;
}

/**
 * What `go mod tidy` changed in go.mod, for people: the go directive and the versions of modules
 * required before and after (direct ones by name, indirect ones counted).
 */
export function tidyChanges(before: GoMod, after: GoMod): string[] {
  const out: string[] = [];
  if (before.go !== after.go) out.push(`go ${before.go ?? '(none)'} → ${after.go ?? '(none)'}`);
  let indirect = 0;
  for (const [path, { version, indirect: isIndirect }] of after.requires) {
    const was = before.requires.get(path)?.version;
    if (was === undefined || was === version || path === MODULE_PATH) continue;
    if (isIndirect) indirect++;
    else out.push(`${path} ${was} → ${version}`);
  }
  const added = [...after.requires.keys()].filter((p) => !before.requires.has(p) && p !== MODULE_PATH).length;
  const removed = [...before.requires.keys()].filter((p) => !after.requires.has(p)).length;
  if (indirect) out.push(`${indirect} indirect module${indirect === 1 ? '' : 's'} updated`);
  if (added) out.push(`${added} module${added === 1 ? '' : 's'} added`);
  if (removed) out.push(`${removed} module${removed === 1 ? '' : 's'} no longer needed`);
  return out;
}

const REQUIRE_TEXT = (version: string) => `require ${MODULE_PATH} v${version} (replace => ${REPLACE_PATH})`;

/**
 * The replace, now; the require comes with `go mod tidy` (see tidy), once the code imports the
 * module, so tidy writes it among the direct requirements where a person would.
 */
export async function requireShippedModule(project: Project, mod: GoMod, version: string): Promise<boolean> {
  const theirs = ownReplace(mod);
  if (theirs) {
    if (mod.requires.get(MODULE_PATH)?.version === `v${version}`) {
      project.unchanged('go.mod', `requires ${MODULE_PATH} v${version}, replace => ${theirs}: yours, kept`);
      return false;
    }
    project.changed('go.mod', `require ${MODULE_PATH} v${version} (replace => ${theirs} kept: yours; the copy in ${REPLACE_PATH} is used once that replace goes)`);
    return true;
  }
  if (requiresShipped(mod, version)) {
    project.unchanged('go.mod', `requires ${MODULE_PATH} v${version}, replace => ${REPLACE_PATH}`);
    return false;
  }
  if (!project.dryRun && mod.replaces.get(MODULE_PATH) !== REPLACE_PATH) {
    await project.go.go(['mod', 'edit', `-replace=${MODULE_PATH}=${REPLACE_PATH}`], project.dir);
  }
  project.changed('go.mod', REQUIRE_TEXT(version));
  return true;
}

/**
 * `go mod tidy`, so go.sum is complete and the module is required, then the require set to the
 * product's version (tidy gives a replaced module it adds a placeholder version); records what tidy
 * moved, and why when the module needed higher versions than the project had. A dry run names
 * those versions before anything moves.
 */
export async function tidy(project: Project, version: string, needs: GoMod): Promise<void> {
  const before = await readGoMod(project.go, project.dir);
  const raises = raisesFor(before, needs);
  if (project.dryRun) {
    project.changed('go.mod', raises.length ? `go mod tidy will raise ${raisesText(raises)} (${NEEDS_WHY}), and modules they need` : 'go mod tidy (go.sum completed)');
    return;
  }
  await project.go.go(['mod', 'tidy'], project.dir);
  const after = await readGoMod(project.go, project.dir);
  const moved = tidyChanges(before, after);
  const why = raises.length ? ` (Controller Lab's Go module needs at least ${needsText(raises)})` : '';
  project.changed('go.mod', `go mod tidy${moved.length ? `: ${moved.join(', ')}${why}` : ' (go.sum completed)'}`);
  const required = after.requires.get(MODULE_PATH);
  // Tidy drops a require nothing imports: the wrap line (or a suite) must come first.
  if (!required) project.manual('go.mod', `nothing imports ${MODULE_PATH} yet, so go mod tidy did not require it: add controllerlab.Wrap to your main and run this again`);
  else if (required.version !== `v${version}`) await project.go.go(['mod', 'edit', `-require=${MODULE_PATH}@v${version}`], project.dir);
}
