import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifest, readManifests } from '../../../src/simtest/manifests.ts';

test('a folder of manifests is its YAML and JSON files by name, their documents, and List items, not what is no object', () => {
  const dir = mkdtempSync(join(tmpdir(), 'simtest-manifests-'));
  try {
    writeFileSync(join(dir, 'b.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: b }\n---\n# only a comment\n---\nfoo: bar\n');
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a' } }] }));
    writeFileSync(join(dir, 'kustomization.txt'), 'not read');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub/c.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\n');
    assert.deepEqual(readManifests([dir]).map((o) => `${o.kind}/${o.metadata.name}`), ['Secret/a', 'ConfigMap/b']);
    assert.throws(() => readManifests([join(dir, 'missing')]), /missing: no such file or folder/);
    writeFileSync(join(dir, 'bad.yaml'), 'a: [1,\n');
    assert.throws(() => readManifests([join(dir, 'bad.yaml')]), /bad\.yaml: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('YAML text given to apply is read as a stream of documents', () => {
  assert.deepEqual(parseManifest('apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: { name: y }\n').map((o) => o.kind), ['ConfigMap', 'Deployment']);
});
