import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import { FaultArgumentError } from '../../../../src/sim/faults/faultArguments.ts';
import { faultArgsFrom, faultArgsFromFlags, faultArgsOfStep, faultHelp, faultUsage, flagOf } from '../../../../src/sim/faults/faultCalls.ts';
import { FAULTS, faultNamed, type Fault } from '../../../../src/sim/faults/faultTable.ts';
import { CM, configMap, newCluster } from '../store/helpers.ts';

// One table of faults: each has one name, typed arguments with help, and what it does; every
// surface reads the arguments with the same types.

const named = (name: string): Fault => faultNamed(name) ?? assert.fail(`no fault ${name}`);
const refused = (message: RegExp) => (err: unknown) => err instanceof FaultArgumentError && message.test(err.message);

test('every fault has one kebab-case name, a help line, and help for each argument', () => {
  const names = FAULTS.map((f) => f.name);
  assert.deepEqual(names.filter((n) => !/^[a-z]+(-[a-z]+)*$/.test(n)), []);
  assert.equal(new Set(names).size, names.length);
  for (const f of FAULTS) {
    assert.ok(f.help.length > 10, f.name);
    for (const [arg, spec] of Object.entries(f.args)) assert.ok(spec.help.length > 5, `${f.name} ${arg}`);
    if (f.shorthand) assert.ok(f.args[f.shorthand], `${f.name}'s shorthand is one of its arguments`);
  }
});

test('arguments are read by their types from JSON, YAML and command-line strings alike', () => {
  const http = named('http-faults');
  assert.deepEqual(faultArgsFrom(http, { errorRate: 0.5, errorCode: 429, latencyMs: '100ms', pathFilter: '/configmaps' }), { errorRate: 0.5, errorCode: 429, latencyMs: 100, pathFilter: '/configmaps' });
  assert.deepEqual(faultArgsFromFlags(http, ['--error-rate', '0.5', '--error-code=429', '--retry-after-seconds', '2']), { errorRate: 0.5, errorCode: 429, retryAfterSeconds: 2 });
  assert.throws(() => faultArgsFrom(http, { errorRate: 7 }), refused(/^errorRate must be a number between 0 and 1$/));
  assert.throws(() => faultArgsFrom(http, { errorCode: 404 }), refused(/^errorCode must be 429 or 500$/));
  assert.throws(() => faultArgsFrom(http, { rate: 1 }), refused(/^http-faults takes errorRate, errorCode, retryAfterSeconds, latencyMs or pathFilter, not rate$/));
  assert.throws(() => faultArgsFromFlags(http, ['--rate', '1']), refused(/--error-rate, .* not --rate$/));
  assert.throws(() => faultArgsFromFlags(http, ['--error-rate']), refused(/--error-rate needs a value/));
});

test('required arguments are required, flags stand alone, and a step may give its shorthand argument alone', () => {
  assert.throws(() => faultArgsFrom(named('conflict'), { resource: 'configmaps' }), refused(/^name is required$/));
  assert.throws(() => faultArgsFrom(named('delay-events'), {}), refused(/^ms is required$/));
  assert.deepEqual(faultArgsFromFlags(named('restart'), ['--drop-history']), { dropHistory: true });
  assert.deepEqual(faultArgsFromFlags(named('restart'), ['--drop-history', 'false']), { dropHistory: false });
  assert.deepEqual(faultArgsOfStep(named('compact'), 'now'), { resourceVersion: 'now' });
  assert.deepEqual(faultArgsOfStep(named('compact'), { resourceVersion: 12 }), { resourceVersion: 12 });
  assert.deepEqual(faultArgsOfStep(named('delay-events'), '500ms'), { ms: 500 });
  assert.deepEqual(faultArgsOfStep(named('withhold-events'), true), {});
  assert.throws(() => faultArgsOfStep(named('restart'), 'soon'), refused(/restart takes dropHistory: give true or a map of them/));
});

test('help and usage come from the table: flags are the kebab-case of the arguments', () => {
  assert.equal(flagOf('retryAfterSeconds'), '--retry-after-seconds');
  assert.equal(faultUsage(named('conflict')), 'conflict --resource RESOURCE [--namespace TEXT] --name TEXT');
  assert.equal(faultUsage(named('restart')), 'restart [--drop-history]');
  const help = faultHelp(named('compact'));
  assert.match(help, /^compact \[--resource-version RV\|now\]\n {2}drop the watch history/);
  assert.match(help, /--resource-version RV\|now {2}compact up to here \(default: now\)/);
});

test('a fault names resources as kubectl does, and 404s on one the cluster does not serve', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('c'));
  named('conflict').apply(cluster, { resource: 'cm', name: 'c' });
  assert.deepEqual(cluster.faults.state().pendingConflicts, ['configmaps/default/c']);
  named('conflict').apply(cluster, { resource: 'Deployment.apps', namespace: 'shop', name: 'web' });
  assert.deepEqual(cluster.faults.state().pendingConflicts, ['configmaps/default/c', 'deployments.apps/shop/web']);
  assert.deepEqual(named('drop-watches').apply(cluster, { resource: 'deploy' }), { dropped: 0 });
  assert.throws(() => named('drop-watches').apply(cluster, { resource: 'gizmos' }), (e: unknown) => e instanceof ApiError && e.code === 404 && /resource type "gizmos"/.test(e.message));
});

test('what each fault answers, as the admin endpoint sends it', () => {
  const { cluster } = newCluster();
  assert.deepEqual(named('compact').apply(cluster, {}), { compactedResourceVersion: String(cluster.resourceVersion) });
  assert.deepEqual(named('delay-events').apply(cluster, { ms: 0 }), { ok: true });
  let restarted = 0;
  assert.deepEqual(named('restart').apply({ faults: cluster.faults, resources: cluster.resources, resourceVersion: 7, restarted: () => restarted++ }, {}), { resourceVersion: '7' });
  assert.equal(restarted, 1);
  assert.deepEqual((named('http-faults').apply(cluster, { errorRate: 0.25 }) as { http: { errorRate: number } }).http.errorRate, 0.25);
  assert.equal((named('reset').apply(cluster, {}) as { faults: { http: { errorRate: number } } }).faults.http.errorRate, 0);
});

test('watch faults take a user; the faults aimed at one user read their arguments from flags alike', () => {
  assert.deepEqual(faultArgsFromFlags(named('withhold-events'), ['--user', 'controller-lab:checked']), { user: 'controller-lab:checked' });
  assert.deepEqual(faultArgsOfStep(named('delay-events'), { ms: '1s', user: 'u' }), { ms: 1000, user: 'u' });
  assert.deepEqual(faultArgsFromFlags(named('expire-watches'), ['--user', 'u', '--discard-withheld']), { user: 'u', discardWithheld: true });
  assert.deepEqual(
    faultArgsFromFlags(named('coalesce-events'), ['--user', 'u', '--resource', 'cm', '--name', 'x', '--count', '2', '--release-after', '5s']),
    { user: 'u', resource: 'cm', name: 'x', count: 2, releaseAfter: 5000 },
  );
  assert.deepEqual(faultArgsFromFlags(named('stale-view'), ['--user', 'u', '--resource-version', '12', '--for-ms', '10s']), { user: 'u', resourceVersion: 12, forMs: 10_000 });
  assert.throws(() => faultArgsFrom(named('coalesce-events'), { resource: 'cm', name: 'x' }), refused(/^user is required$/));
  assert.equal(faultUsage(named('stale-view')), 'stale-view --user USER --resource-version RV|now --for-ms DURATION');
});

test('applyFault reads the arguments, applies, and notes the fault in the history with the resourceVersion and time', () => {
  const { cluster, clock } = newCluster();
  clock.step(1234);
  const rv = cluster.resourceVersion;
  assert.deepEqual(cluster.applyFault('stale-view', { user: 'u', resourceVersion: 'now', forMs: '1s' }), { resourceVersion: String(rv) });
  assert.deepEqual(cluster.faults.history(), [{ name: 'stale-view', args: { user: 'u', resourceVersion: 'now', forMs: 1000 }, resourceVersion: rv, at: clock.now() }]);
  assert.throws(() => cluster.applyFault('stale-view', { user: 'u', resourceVersion: rv + 5, forMs: 0 }), (e: unknown) => e instanceof ApiError && e.code === 400);
  assert.throws(() => cluster.applyFault('no-such-fault'), FaultArgumentError);
  assert.equal(cluster.faults.history().length, 1);
  clock.step(1000);
  assert.deepEqual(cluster.faults.state().staleViews, []);
});
