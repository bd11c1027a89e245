import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { ask, askUntil, launch, startClient } from './dapClient.ts';
import { writeGoProgram } from '../unit/runtime/support/goPrograms.ts';

// "Why (not)?" over DAP for a controller run as a ServiceAccount that may not write what it
// reconciles (test/fixtures/whyRefused): the reconcile ran, and the answer goes on to the write
// RBAC refused, with the rule to add, and to the error and the backoff of a key that keeps failing.

const FIXTURE = (name: string) => fileURLToPath(new URL(`../fixtures/whyRefused/${name}`, import.meta.url));
const SCENARIO = FIXTURE('scenario.yaml');
const SYNCER = 'system:serviceaccount:default:syncer';

async function answersRefusals(dc: DebugClient, managed: string, backoff: RegExp): Promise<void> {
  const web = await askUntil(dc, 'why Deployment default/web', /Written\?/);
  assert.match(web, /^ADDED rv \d+:\n {2}syncer: reconciled \(#\d+\)$/m, web);
  assert.match(web, /^ {4}Written\? no, RBAC refused its patch of Deployment default\/web: system:serviceaccount:default:syncer lacks \{apiGroups: \["apps"\], resources: \["deployments"\], verbs: \["patch"\]\} \(kubebuilder: \/\/ \+kubebuilder:rbac:groups=apps,resources=deployments,verbs=patch\)$/m, web);
  assert.match(web, /^ {4}Result\? error: .*cannot patch resource \\?"deployments\\?" in API group \\?"apps\\?"/m, web);

  const other = await askUntil(dc, 'why Deployment default/other', /^MODIFIED/m);
  assert.match(other, new RegExp(`^ {4}Filtered\\? yes \\(For\\), by predicate ${managed}: it returned false, so nothing was enqueued$`, 'm'), other);

  const flaky = await ask(dc, 'why Deployment default/flaky');
  assert.match(flaky, backoff, flaky);

  const stray = await askUntil(dc, 'why Secret default/stray', /^MODIFIED/m);
  assert.match(stray, /^ {4}Mapped to\? no request \(Watches\): the map function returned no request$/m, stray);
}

test('why (not)? names the write RBAC refused a TypeScript controller, and its error', { timeout: 180_000 }, async () => {
  const dc = await startClient();
  try {
    await launch(dc, { controller: FIXTURE('controller.ts'), scenario: SCENARIO, runAs: SYNCER }, { exceptionFilters: [] });
    // Its backoff starts at milliseconds: the first failure was retried long ago.
    await answersRefusals(dc, 'managed', /^ {4}Result\? error: told to fail; retried with backoff \(its next reconcile: #\d+\)$/m);
  } finally {
    await dc.stop();
  }
});

test('why (not)? names the write RBAC refused a Go controller, its predicate\'s filter and the backoff its rate limiter left', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(readFileSync(FIXTURE('main.go'), 'utf8'));
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  try {
    await launch(dc, { program: program.dir, scenario: SCENARIO, runAs: SYNCER }, { exceptionFilters: [] });
    // A 40 s first backoff: the key still waits when asked.
    await answersRefusals(dc, 'predicate\\.NewPredicateFuncs\\(main\\.managed\\)', /^ {4}Result\? error: told to fail; default\/flaky waits in the rate limiter: retry 1 in \d+\.\d s \(a 40\.0 s backoff\)$/m);
  } finally {
    await dc.stop();
    program.dispose();
  }
});

test('a data breakpoint on a field whose change a predicate filtered stops while keys fail in backoff, naming the predicate, TypeScript', { timeout: 180_000 }, async () => {
  const dc = await startClient();
  try {
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { controller: FIXTURE('controller.ts'), scenario: SCENARIO, runAs: SYNCER }, { exceptionFilters: [], functionBreakpoints: [{ name: 'Deployment default/other .spec.replicas > 1' }] });
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'data breakpoint');
    assert.match(stop.body.description ?? '', /^Deployment default\/other \.spec\.replicas: 1 → 3 \(rv (\d+)\), outside the controller; it triggered no reconcile: filtered by predicate managed \(For\); `why Deployment default\/other@\1`/, stop.body.description);
  } finally {
    await dc.stop();
  }
});

test('Go: a data breakpoint on a field whose change a predicate filtered stops while keys fail in backoff, naming the predicate', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(readFileSync(FIXTURE('main.go'), 'utf8'));
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  try {
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { program: program.dir, scenario: SCENARIO, runAs: SYNCER }, { exceptionFilters: [], functionBreakpoints: [{ name: 'Deployment default/other .spec.replicas > 1' }] });
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'data breakpoint');
    assert.match(stop.body.description ?? '', /^Deployment default\/other \.spec\.replicas: 1 → 3 \(rv (\d+)\), outside the controller; it triggered no reconcile: filtered by predicate predicate\.NewPredicateFuncs\(main\.managed\) \(For\); `why Deployment default\/other@\1`/, stop.body.description);
  } finally {
    await dc.stop();
    program.dispose();
  }
});
