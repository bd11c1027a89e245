import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../types/simtest.d.ts';

// Manifests as a test names them: files of YAML (any number of documents) or JSON, and folders of
// them (their *.yaml, *.yml and *.json, by name, not their subfolders), as envtest reads
// CRDDirectoryPaths. Documents that are not objects (empty, no apiVersion or kind) are skipped.

const MANIFEST = /\.(ya?ml|json)$/i;

export function readManifests(paths: readonly string[]): KubeObject[] {
  const objects: KubeObject[] = [];
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      throw new Error(`controller-lab/simtest: ${path}: no such file or folder`);
    }
    const files = isDir ? readdirSync(path).filter((name) => MANIFEST.test(name)).sort().map((name) => join(path, name)) : [path];
    for (const file of files) objects.push(...parseManifest(readFileSync(file, 'utf8'), file));
  }
  return objects;
}

/** The objects of YAML or JSON text (a List's items too); `source` names it in errors. */
export function parseManifest(text: string, source = 'the manifest'): KubeObject[] {
  const values: unknown[] = [];
  if (extname(source).toLowerCase() === '.json') values.push(JSON.parse(text));
  else {
    for (const doc of parseAllDocuments(text)) {
      const error = doc.errors[0];
      if (error) throw new Error(`controller-lab/simtest: ${source}: ${error.message}`);
      values.push(doc.toJS());
    }
  }
  return values.flatMap((v) => (isList(v) ? v.items : [v])).filter(isObject);
}

function isObject(value: unknown): value is KubeObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { apiVersion, kind } = value as Record<string, unknown>;
  return typeof apiVersion === 'string' && typeof kind === 'string';
}

function isList(value: unknown): value is { items: unknown[] } {
  return isObject(value) && (value.kind ?? '').endsWith('List') && Array.isArray((value as { items?: unknown }).items);
}
