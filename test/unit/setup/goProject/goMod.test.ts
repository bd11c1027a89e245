import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tidyChanges, type GoMod } from '../../../../src/setup/goProject/goMod.ts';
import { compareVersions } from '../../../../src/setup/goProject/moduleNeeds.ts';
import { MODULE_PATH } from '../../../../src/setup/goProject/shippedModule.ts';

function mod(go: string, requires: [string, string, boolean?][]): GoMod {
  return { module: 'example.com/memcached-operator', go, requires: new Map(requires.map(([p, v, indirect]) => [p, { version: v, indirect: indirect === true }])), replaces: new Map() };
}

test('what go mod tidy moved: direct modules by name, indirect ones counted, our own module left out', () => {
  const before = mod('1.25.0', [['sigs.k8s.io/controller-runtime', 'v0.25.0'], ['k8s.io/client-go', 'v0.37.0'], ['golang.org/x/net', 'v0.55.0', true], ['golang.org/x/sys', 'v0.46.0', true], ['gone.example/m', 'v1.0.0', true]]);
  const after = mod('1.26.0', [[MODULE_PATH, 'v0.0.0-00010101000000-000000000000'], ['sigs.k8s.io/controller-runtime', 'v0.25.2'], ['k8s.io/client-go', 'v0.37.0'], ['golang.org/x/net', 'v0.57.0', true], ['golang.org/x/sys', 'v0.47.0', true], ['new.example/m', 'v1.0.0', true]]);
  assert.deepEqual(tidyChanges(before, after), ['go 1.25.0 → 1.26.0', 'sigs.k8s.io/controller-runtime v0.25.0 → v0.25.2', '2 indirect modules updated', '1 module added', '1 module no longer needed']);
  assert.deepEqual(tidyChanges(after, after), []);
});

test('versions compare as go orders them: go directives, releases after their pre-releases, pseudo-versions by time', () => {
  assert.ok(compareVersions('1.24.0', '1.25.0') < 0 && compareVersions('1.25', '1.25.0') === 0 && compareVersions('1.26.0', '1.25.0') > 0);
  assert.ok(compareVersions('v0.22.4', 'v0.23.0') < 0 && compareVersions('v0.23.0', 'v0.23.0') === 0 && compareVersions('v0.25.2', 'v0.23.0') > 0);
  assert.ok(compareVersions('v0.36.0-rc.1', 'v0.36.0') < 0 && compareVersions('v0.36.0', 'v0.36.0-rc.1') > 0);
  assert.ok(compareVersions('v0.0.0-20250604170112-4c0f3b243397', 'v0.0.0-20251002143259-bc988d571ff4') < 0);
});
