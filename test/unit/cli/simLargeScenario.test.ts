import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchDir } from '../kube/support/loopbackApi.ts';
import { runCli } from './support/runCli.ts';

// `sim --scenario` with a scenario of many thousands of objects (a cluster's dump) says how far it
// is while it reads and applies them, instead of seconds (minutes at 60k objects) of silence.

test('sim --scenario with 12k objects says how many objects it has read and applied, and how fast', { timeout: 300_000 }, async (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const file = path.join(dir, 'dump.yaml');
  const n = 12_000;
  const items = Array.from({ length: n }, (_, i) => `  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: cm-${i}, namespace: default }\n    data: { config: "${'x'.repeat(900)}" }\n`);
  writeFileSync(file, `objects:\n${items.join('')}`);
  const r = await runCli(['sim', '--port', '0', '--scenario', file, '--stop-with-stdin']);
  assert.equal(r.code, 0, r.stderr);
  const read = [...r.stdout.matchAll(/^Scenario .*dump\.yaml: reading objects: (\d+)\/12000 \(\d+\/s\)$/gm)].map((m) => Number(m[1]));
  const applied = [...r.stdout.matchAll(/^Scenario .*dump\.yaml: applying objects: (\d+)\/12000 \(\d+\/s\)$/gm)].map((m) => Number(m[1]));
  assert.ok(read.length > 0 && applied.length > 0, r.stdout);
  assert.deepEqual(read, [...read].sort((a, b) => a - b), 'counts go up');
  assert.match(r.stdout, /started: 12000 objects applied/);
});
