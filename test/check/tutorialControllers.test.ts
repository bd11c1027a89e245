// A controller written as its tutorial writes it, not as check's authors would: the kubebuilder
// tutorial's memcached-operator in Go (a Deployment rolled out by the sim's workload controllers,
// status conditions, a finalizer). The correct one raises nothing; a buggy one is found with its
// bug's class and no other. (Its other buggy variants, which need every plan — four to five
// minutes each — for their findings to be attributed, and the namespace provisioner in
// test/check/ts, are checked by hand: the stage has no time for them.)
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { check, transcript } from './checkCli.ts';

const MEMCACHED = ['test/check/scenarios/memcached.yaml', ['--workloads']] as const;

// The memcached-operator's scenario plans about 120 runs (every Deployment and Pod change the
// workload controllers make): its correct twin runs every one of them, as a user's check does
// (in about 80 s on a loaded 2-core machine).
const CASES: [program: string, scenario: readonly [string, readonly string[]], expected: string | undefined, budget: string | undefined, orFoundBy?: readonly string[]][] = [
  ['./test/check/go/memcached/correct', MEMCACHED, undefined, undefined],
  // It adds its steps to the Deployment's replicas as cached: when a step comes while its own
  // scale-up is not yet in its cache, that is lost too, and a stale cache is the simpler explanation.
  ['./test/check/go/memcached/buggy-edge', MEMCACHED, 'unobserved-state', '60s', ['stale-after-write']],
  // Found by the reference runs' resync: metav1.Time has a second's precision, so the resync waits for a new second.
  ['./test/check/go/memcached/buggy-timestamp', MEMCACHED, 'not-idempotent', '60s'],
];

for (const [program, [scenario, args], expected, budget, orFoundBy = []] of CASES) {
  it(`${program}: ${expected ? `its bug is found as ${expected}${orFoundBy.length ? ` (or by ${orFoundBy.join(', ')})` : ''}, and as nothing else` : `no finding${budget ? ` in ${budget}` : ', every plan run'}`}`, async () => {
    const r = await check(program, scenario, [...args, ...(budget ? ['--budget', budget] : [])]);
    if (!expected) {
      assert.equal(r.findings.length, 0, `${r.findings.map((f) => f.summary).join('\n')}${transcript(r)}`);
      assert.equal(r.code, 0, transcript(r));
      if (!budget) assert.equal(r.skipped, 0, transcript(r));
      return;
    }
    assert.equal(r.code, 1, `check exits 1 on a controller with a bug${transcript(r)}`);
    assert.ok(r.findings.length > 0, `a finding${transcript(r)}`);
    assert.ok(r.findings.every((f) => f.class === expected || orFoundBy.includes(f.plan.kind)), `every finding is ${expected}${orFoundBy.length ? ` or by ${orFoundBy.join(', ')}` : ''}: ${r.findings.map((f) => `${f.class} (${f.plan.kind})`).join(', ')}${transcript(r)}`);
  });
}
