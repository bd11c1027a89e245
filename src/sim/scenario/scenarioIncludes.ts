import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, resolve } from 'node:path';
import { LineCounter, parseAllDocuments, parseDocument, type Document } from 'yaml';
import type { ScenarioProblem } from './scenarioError.ts';
import { documentValue, yamlProblem } from './scenarioYaml.ts';

// A scenario's `include:` list: files and folders of YAML from the project itself (its CRDs,
// config/rbac, config/samples), read as they are on disk when the scenario is loaded.
//
//   - a file is a YAML stream: every document in it;
//   - a folder is every *.yaml / *.yml in it, by name (not its subfolders), unless it holds a
//     kustomization.yaml (or .yml, or Kustomization): then its `resources:` list is read instead,
//     files and folders, recursively. Kustomize's transformers (namePrefix, namespace, labels,
//     patches, generators) are not applied: objects are what the files say.
//
// Documents that are not Kubernetes objects (empty, no apiVersion or kind, a Kustomization) are
// skipped. Paths are relative to the scenario's folder; each document is answered with the file it
// came from as the scenario's own paths would name it, so problems point into it.

export interface IncludedDocument {
  /** The file, as the scenario's file name joined with the include path (`../config/samples/x.yaml`). */
  file: string;
  doc: Document.Parsed;
  lines: LineCounter;
  /** The document's value (a Kubernetes object). */
  value: Record<string, unknown>;
}

export interface IncludeWhere {
  /** The folder paths are relative to: the scenario file's. Without it only absolute paths can be read. */
  baseDir?: string;
  /** The scenario's name as problems show it; included files are named relative to it. */
  fileName: string;
}

/** A problem with `include:` itself (`index`: the entry, or undefined for the field), in the scenario's own lines. */
export type IncludeFieldProblem = (index: number | undefined, message: string) => void;

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

export function isObjectDocument(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { apiVersion, kind } = value as Record<string, unknown>;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return false;
  return !apiVersion.startsWith('kustomize.config.k8s.io/');
}

class IncludeReader {
  readonly documents: IncludedDocument[] = [];
  readonly problems: ScenarioProblem[] = [];
  /** Real paths already read: a file included twice (or a kustomization cycle) is read once. */
  private readonly seen = new Set<string>();

  /**
   * `shown`: the path as problems name it; `absolute`: where it is; `notFound`: reports that nothing
   * is there; `named`: the scenario names it itself (not a folder's file, nor a kustomization's).
   */
  read(shown: string, absolute: string, notFound: () => void, named = false): void {
    let isDir: boolean;
    let real: string;
    try {
      isDir = statSync(absolute).isDirectory();
      real = realpathSync(absolute);
    } catch {
      notFound();
      return;
    }
    if (this.seen.has(real)) return;
    this.seen.add(real);
    if (!isDir) {
      if (KUSTOMIZATION_FILES.includes(basename(absolute))) return this.readKustomization(shown, absolute);
      const before = this.documents.length + this.problems.length;
      this.readFile(shown, absolute);
      // A file the scenario names is meant to add something; a folder's other YAML may be config.
      if (named && this.documents.length + this.problems.length === before) {
        this.problems.push({ file: shown, line: 1, column: 1, path: '', message: 'holds no Kubernetes objects (no document with apiVersion and kind)' });
      }
      return;
    }
    const kustomization = KUSTOMIZATION_FILES.find((name) => isFile(join(absolute, name)));
    if (kustomization) return this.readKustomization(join(shown, kustomization), join(absolute, kustomization));
    const names = readdirSync(absolute).filter((n) => /\.ya?ml$/i.test(n) && isFile(join(absolute, n))).sort();
    for (const name of names) this.readFile(join(shown, name), join(absolute, name));
  }

  private readFile(shown: string, absolute: string): void {
    const text = readFileSync(absolute, 'utf8');
    const lines = new LineCounter();
    for (const doc of parseAllDocuments(text, { lineCounter: lines, prettyErrors: true })) {
      if (doc.errors.length) {
        for (const e of doc.errors) this.problems.push(yamlProblem(shown, e));
        continue;
      }
      const read = documentValue(doc, shown);
      if (read.problem) this.problems.push(read.problem);
      else if (isObjectDocument(read.value)) this.documents.push({ file: shown, doc, lines, value: read.value });
    }
  }

  /** A kustomization's `resources:`, each relative to its folder; what else it says is not applied. */
  private readKustomization(shown: string, absolute: string): void {
    const lines = new LineCounter();
    const doc = parseDocument(readFileSync(absolute, 'utf8'), { lineCounter: lines, prettyErrors: true });
    if (doc.errors.length) {
      for (const e of doc.errors) this.problems.push(yamlProblem(shown, e));
      return;
    }
    const read = documentValue(doc, shown);
    if (read.problem) {
      this.problems.push(read.problem);
      return;
    }
    const list = (read.value as { resources?: unknown } | null)?.resources ?? [];
    if (!Array.isArray(list)) {
      this.problems.push({ file: shown, ...position(doc, lines, ['resources']), path: 'resources', message: 'must be a list of files and folders' });
      return;
    }
    list.forEach((entry: unknown, i) => {
      const at = (message: string) => this.problems.push({ file: shown, ...position(doc, lines, ['resources', i]), path: `resources[${i}]`, message });
      if (typeof entry !== 'string') return at('must be a path');
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || entry.startsWith('github.com/')) return at(`${entry}: remote resources are not read; include local files and folders`);
      this.read(normalize(join(dirname(shown), entry)), resolve(dirname(absolute), entry), () => at(`${entry}: no such file or directory`));
    });
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function position(doc: Document.Parsed, lines: LineCounter, path: (string | number)[]): { line: number; column: number } {
  const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
  const pos = node?.range ? lines.linePos(node.range[0]) : undefined;
  return { line: pos?.line ?? 0, column: pos?.col ?? 0 };
}

/**
 * Reads every file the scenario's `include:` names (the field's value, as parsed). Problems with the
 * field go to `fieldProblem`; problems inside included files come back with their file and line.
 */
export function readIncludes(value: unknown, where: IncludeWhere, fieldProblem: IncludeFieldProblem): { documents: IncludedDocument[]; problems: ScenarioProblem[] } {
  const reader = new IncludeReader();
  if (value === undefined || value === null) return { documents: [], problems: [] };
  if (!Array.isArray(value)) {
    fieldProblem(undefined, 'must be a list of files and folders (relative to the scenario)');
    return { documents: [], problems: [] };
  }
  value.forEach((entry: unknown, i) => {
    if (typeof entry !== 'string' || entry === '') return fieldProblem(i, 'must be a path to a file or folder');
    if (!isAbsolute(entry) && where.baseDir === undefined) {
      return fieldProblem(i, `${entry}: a relative path needs the scenario's folder, which a scenario sent as text does not have; load it from its file`);
    }
    const absolute = resolve(where.baseDir ?? '/', entry);
    const shown = isAbsolute(entry) ? entry : normalize(join(dirname(where.fileName), entry));
    // kubebuilder's CRDs are generated: a fresh scaffold has none until `make manifests`.
    const generated = /(^|\/)config\/crd\/bases\/?$/.test(entry) ? ' (kubebuilder writes it: make manifests)' : '';
    reader.read(shown, absolute, () => fieldProblem(i, `${entry}: no such file or directory${generated}`), true);
  });
  return { documents: reader.documents, problems: reader.problems };
}
