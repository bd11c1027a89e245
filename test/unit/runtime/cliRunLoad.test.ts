import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { runController, withTempDir } from './support/runController.ts';

// `controller-lab run` with a controller that writes thousands of objects of its own kind: each write
// comes back as an event, a queued key and a reconcile. The time per object must not grow with the
// number of objects (it did: 2,000 took 16 s, 4,000 took 72 s). The bound is generous; the figures
// are measured by bench/controllerRun.bench.ts.

const N = 4000;

test(`a controller that creates ${N} objects of its own kind reconciles them all in well under a minute`, () => {
  withTempDir((dir) => {
    const scenario = join(dir, 'seed.yaml');
    writeFileSync(scenario, 'objects:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: seed, namespace: default }\n');
    const source = `import { defineController } from 'controller-lab';
export default defineController({
  name: 'fanout',
  for: { apiVersion: 'v1', kind: 'ConfigMap' },
  async reconcile(req, ctx) {
    if (req.name !== 'seed') return;
    for (let i = 0; i < ${N}; i++) {
      await ctx.client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-' + i, namespace: req.namespace }, data: { i: String(i) } });
    }
  },
});
`;
    // The seed's single reconcile does all the writing: on a busy machine it may outlast the default 30 s limit.
    const r = runController(dir, source, ['--sim', '--scenario', scenario, '--until-idle', '--quiet', '--reconcile-timeout', '300000', '--timeout', '110'], { limitMs: 120_000 });
    assert.equal(r.code, 0, r.stderr);
    // The cluster's own ConfigMaps (each namespace's kube-root-ca.crt) are reconciled too.
    const reconciled = new Set(r.trace.map((l) => l.key).filter((k) => k === 'default/seed' || k.startsWith('default/cm-')));
    assert.equal(reconciled.size, N + 1);
    assert.ok(r.trace.every((l) => !l.error));
    const first = Date.parse(r.trace[0]!.startedAt);
    const last = Math.max(...r.trace.map((l) => Date.parse(l.startedAt) + l.durationMs));
    assert.ok(last - first < 40_000, `${N} objects took ${last - first} ms`);
  });
});
