// The core kinds `watch` resolves without discovery must be what discovery of a real server
// resolves them to: checked against kube-apiserver v1.28's recorded /api/v1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { builtInResource } from '../../../src/kube/builtInResources.ts';
import type { DiscoveryResult } from '../../../src/kube/discovery.ts';
import { resolveResource } from '../../../src/kube/resolve.ts';

interface Recorded {
  name: string;
  singularName: string;
  namespaced: boolean;
  kind: string;
  verbs: string[];
  shortNames?: string[];
}

const recorded = (JSON.parse(readFileSync('/work/shared/reference/discovery/api_v1.json', 'utf8')) as { resources: Recorded[] }).resources.filter((r) => !r.name.includes('/'));
const discovery: DiscoveryResult = {
  groups: [{ name: '', versions: ['v1'], preferredVersion: 'v1' }],
  resources: recorded.map((r) => ({ group: '', version: 'v1', resource: r.name, kind: r.kind, namespaced: r.namespaced, shortNames: r.shortNames ?? [], singularName: r.singularName, verbs: r.verbs })),
  failed: [],
};

test('every listable core kind, by plural or singular in any case, resolves as discovery resolves it', () => {
  const listable = recorded.filter((r) => r.verbs.includes('list') && r.verbs.includes('watch'));
  assert.ok(listable.length >= 15);
  for (const r of listable) {
    for (const name of [r.name, r.singularName, r.name.toUpperCase()]) {
      assert.deepEqual(builtInResource(name), resolveResource(name, discovery), name);
    }
  }
});

test('kinds without list and watch, short names and qualified names are left to discovery', () => {
  for (const name of ['bindings', 'componentstatuses', 'cm', 'po', 'svc', 'configmaps.v1', 'deployments', 'deployments.apps', 'widgets.example.com', '']) {
    assert.equal(builtInResource(name), undefined, name);
  }
});
