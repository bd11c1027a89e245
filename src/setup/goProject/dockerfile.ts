import type { Project } from './project.ts';

// kubebuilder's Dockerfile copies go.mod and go.sum alone and downloads modules before it copies the
// source (a layer that survives source edits). With go.mod replacing Controller Lab's module by
// ./controller-lab/go, that download needs the module's folder too; and .dockerignore, which
// ignores everything but Go files and the root go.mod/go.sum, must let its go.mod and go.sum in.

export const MODULE_COPY_DIR = 'controller-lab/go';

export type DockerEditResult = { kind: 'changed'; text: string } | { kind: 'unchanged'; why: string };

const DOWNLOAD = /^RUN\s+go\s+mod\s+download\b.*$/m;

/** Adds `COPY controller-lab/go/ controller-lab/go/` before `RUN go mod download`, when go.mod is copied alone before it. */
export function copyModuleBeforeDownload(text: string): DockerEditResult {
  if (text.includes(`${MODULE_COPY_DIR}/`)) return { kind: 'unchanged', why: `already copies ${MODULE_COPY_DIR}/` };
  const download = DOWNLOAD.exec(text);
  if (!download) return { kind: 'unchanged', why: 'it does not run go mod download' };
  const before = text.slice(0, download.index);
  const copies = [...before.matchAll(/^COPY\s+(?!--from)[^\n]*$/gm)];
  const copiesGoMod = copies.some((c) => /\bgo\.mod\b/.test(c[0]));
  const copiesAll = copies.some((c) => /^COPY\s+(?:--\S+\s+)*\.\s/.test(c[0]));
  if (!copiesGoMod || copiesAll) return { kind: 'unchanged', why: 'the whole source is there before go mod download' };
  const last = copies.at(-1)!;
  const at = last.index + last[0].length + 1;
  const lines = [
    "# Controller Lab's Go module: go.mod replaces it with this local copy",
    `COPY ${MODULE_COPY_DIR}/ ${MODULE_COPY_DIR}/`,
  ];
  return { kind: 'changed', text: `${text.slice(0, at)}${lines.join('\n')}\n${text.slice(at)}` };
}

/** Re-includes the copy's go.mod and go.sum in a .dockerignore that ignores everything and re-includes the root ones. */
export function reincludeModuleFiles(text: string): DockerEditResult {
  const patterns = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  if (patterns.includes(`!${MODULE_COPY_DIR}/go.mod`)) return { kind: 'unchanged', why: `already lets ${MODULE_COPY_DIR}/go.mod in` };
  const ignoresAll = patterns.includes('**') || patterns.includes('*');
  if (!ignoresAll) return { kind: 'unchanged', why: 'it does not ignore everything' };
  const lines = text.split('\n');
  const goSum = lines.findIndex((l) => l.trim() === '!go.sum');
  const goMod = lines.findIndex((l) => l.trim() === '!go.mod');
  const after = Math.max(goSum, goMod);
  const added = [
    "# Re-include the go.mod and go.sum of Controller Lab's Go module (go.mod replaces it with controller-lab/go)",
    `!${MODULE_COPY_DIR}/go.mod`,
    `!${MODULE_COPY_DIR}/go.sum`,
  ];
  if (after < 0) {
    const body = text.endsWith('\n') ? text : `${text}\n`;
    return { kind: 'changed', text: `${body}\n${added.join('\n')}\n` };
  }
  lines.splice(after + 1, 0, '', ...added);
  return { kind: 'changed', text: lines.join('\n') };
}

/** Lets `docker build` see the module copy, when the Dockerfile downloads modules before copying the source. */
export function letDockerBuildSeeCopy(project: Project): void {
  const dockerfile = project.read('Dockerfile');
  if (dockerfile === undefined) return;
  const copy = copyModuleBeforeDownload(dockerfile);
  if (copy.kind === 'changed') project.write('Dockerfile', copy.text, `COPY ${MODULE_COPY_DIR}/ before go mod download`);
  else project.unchanged('Dockerfile', copy.why);
  const needsReinclude = copy.kind === 'changed' || dockerfile.includes(`COPY ${MODULE_COPY_DIR}/`);
  const ignore = project.read('.dockerignore');
  if (ignore === undefined || !needsReinclude) return;
  const reinclude = reincludeModuleFiles(ignore);
  if (reinclude.kind === 'changed') project.write('.dockerignore', reinclude.text, `re-includes ${MODULE_COPY_DIR}/go.mod and go.sum`);
  else project.unchanged('.dockerignore', reinclude.why);
}
