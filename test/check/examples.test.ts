// The examples a user opens first are checked as a user checks them, and hold up: check finds no
// bug in them (and a finding there is a false alarm, or a bug in the example, either ours to fix).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { check, transcript } from './checkCli.ts';

const EXAMPLES: [program: string, scenario: string][] = [
  ['examples/replicaset-controller/controller.ts', 'examples/replicaset-controller/scenario.yaml'],
  ['examples/endpoints-controller/controller.ts', 'examples/endpoints-controller/scenario.yaml'],
  ['./go/examples/configmap-mirror', 'go/examples/configmap-mirror/scenario.yaml'],
];

for (const [program, scenario] of EXAMPLES) {
  it(`${program}: no finding, every plan run`, async () => {
    const r = await check(program, scenario);
    assert.equal(r.findings.length, 0, `${r.findings.map((f) => f.summary).join('\n')}${transcript(r)}`);
    assert.equal(r.code, 0, transcript(r));
    assert.equal(r.skipped, 0, transcript(r));
  });
}
