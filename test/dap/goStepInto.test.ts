import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { launch, startClient, topFrame } from './dapClient.ts';
import { GO_EXAMPLE, GO_EXAMPLE_SCENARIO, TWO_CONTROLLERS_PROGRAM, writeGoProgram } from '../unit/runtime/support/goPrograms.ts';

// Step Into at a reconcile stop of a Go controller: under Delve ("lineBreakpoints": true) it
// enters the program's Reconcile method with Go frames and locals; without Delve it says how to
// get that and steps over.

const MAIN_GO = join(GO_EXAMPLE, 'main.go');
const MAIN_LINES = readFileSync(MAIN_GO, 'utf8').split('\n');
const RECONCILE_LINE = MAIN_LINES.findIndex((l) => l.startsWith('func (r *mirrorReconciler) Reconcile(')) + 1;

test('Go: Step Into at a reconcile stop lands on the first line of Reconcile under Delve; Step Over and Continue go on from there', { timeout: 600_000 }, async () => {
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  try {
    const first = dc.waitForEvent('stopped');
    await launch(dc, { program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, lineBreakpoints: true }, { functionBreakpoints: [{ name: 'ConfigMap default/app-config' }] });
    const reconcileStop = (await first) as DebugProtocol.StoppedEvent;
    assert.equal(reconcileStop.body.reason, 'breakpoint');
    assert.equal(reconcileStop.body.threadId, 1);

    const inside = dc.waitForEvent('stopped');
    await dc.stepInRequest({ threadId: 1 });
    const entered = (await inside) as DebugProtocol.StoppedEvent;
    assert.equal(entered.body.reason, 'step');
    const goThread = entered.body.threadId ?? 0;
    assert.ok(goThread > 1000, `a goroutine thread: ${goThread}`);
    const frame = await topFrame(dc, goThread);
    assert.match(frame.name, /mirrorReconciler\)\.Reconcile$/);
    assert.equal(frame.source?.path, MAIN_GO);
    assert.equal(frame.line, RECONCILE_LINE, `stopped at main.go:${frame.line}: ${MAIN_LINES[frame.line - 1]}`);
    // Go's locals of this reconcile: req is app-config's request.
    assert.equal((await dc.evaluateRequest({ expression: 'req.Name', frameId: frame.id, context: 'watch' })).body.result, '"app-config"');

    // Step Back inside Go code has no recorded reconcile to go back from: it says so and the
    // goroutine stays stopped where it is (a success would leave the editor showing it running).
    await assert.rejects(dc.stepBackRequest({ threadId: goThread }), /Step Back.*inside your code.*Continue/s);
    await assert.rejects(dc.reverseContinueRequest({ threadId: goThread }), /Reverse Continue.*inside your code/s);
    assert.equal((await topFrame(dc, goThread)).line, RECONCILE_LINE);

    // Step Over is Delve's: the next line of Reconcile, same goroutine.
    const stepped = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: goThread });
    const over = (await stepped) as DebugProtocol.StoppedEvent;
    assert.equal(over.body.threadId, goThread);
    const next = await topFrame(dc, goThread);
    assert.equal(next.source?.path, MAIN_GO);
    assert.ok(next.line > RECONCILE_LINE, `after Step Over at main.go:${next.line}`);

    // Continue: the reconcile finishes and the next reconcile stops before it runs, as after a step.
    const again = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: goThread });
    const following = (await again) as DebugProtocol.StoppedEvent;
    assert.equal(following.body.reason, 'step');
    assert.ok((following.body.threadId ?? 0) < 1000, `a worker thread: ${following.body.threadId}`);
    assert.match((await topFrame(dc, following.body.threadId ?? 1)).name, /^reconcile ConfigMap /);

    // The one-shot breakpoint is gone: the next Continue does not stop in Reconcile again.
    const later = dc.waitForEvent('stopped');
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'ConfigMap default/db-config' }] });
    await dc.continueRequest({ threadId: following.body.threadId ?? 1 });
    const db = (await later) as DebugProtocol.StoppedEvent;
    assert.equal(db.body.reason, 'breakpoint');
    assert.match((await topFrame(dc, db.body.threadId ?? 1)).name, /^reconcile ConfigMap default\/db-config /);
    await dc.disconnectRequest({});
  } finally {
    await dc.stop();
  }
});

test('Go: Step Into without Delve says to set "lineBreakpoints" once and steps over the reconcile', { timeout: 600_000 }, async () => {
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  const advice: string[] = [];
  dc.on('output', (e: DebugProtocol.OutputEvent) => {
    if (e.body.output.includes('"lineBreakpoints": true')) advice.push(e.body.output);
  });
  try {
    const first = dc.waitForEvent('stopped');
    await launch(dc, { program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, stopOnEntry: true });
    const entry = (await first) as DebugProtocol.StoppedEvent;
    assert.equal(entry.body.reason, 'entry');
    const before = await topFrame(dc, entry.body.threadId ?? 1);

    for (let i = 0; i < 2; i++) {
      const stopped = dc.waitForEvent('stopped');
      await dc.stepInRequest({ threadId: 1 });
      const stop = (await stopped) as DebugProtocol.StoppedEvent;
      assert.equal(stop.body.reason, 'step');
      assert.ok((stop.body.threadId ?? 0) < 1000, `a worker thread: ${stop.body.threadId}`);
      const frame = await topFrame(dc, stop.body.threadId ?? 1);
      assert.match(frame.name, /^reconcile ConfigMap /);
      assert.ok(frame.id > before.id, `a later reconcile: #${frame.id} after #${before.id}`);
    }
    assert.equal(advice.length, 1, advice.join(''));
    assert.match(advice[0] ?? '', /Step Into .* only under Delve/);
    await dc.disconnectRequest({});
  } finally {
    await dc.stop();
  }
});

// Two controllers in one manager, each with its own reconciler type (a value and a pointer receiver).
const NOOP = `type noop struct{}

func (noop) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, nil
}
`;
const RECONCILERS = `type configsReconciler struct{}

func (configsReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, nil
}

type secretsReconciler struct{}

func (r *secretsReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	name := req.Name
	_ = name
	return reconcile.Result{}, nil
}
`;
const TWO_RECONCILERS = TWO_CONTROLLERS_PROGRAM.replace(NOOP, RECONCILERS)
  .replace('.For(&corev1.ConfigMap{}).Complete(noop{})', '.For(&corev1.ConfigMap{}).Complete(configsReconciler{})')
  .replace('.For(&corev1.Secret{}).Complete(noop{})', '.For(&corev1.Secret{}).Complete(&secretsReconciler{})');

test('Go: with two controllers, Step Into at a Secret reconcile enters the secrets controller\'s Reconcile', { timeout: 600_000 }, async () => {
  assert.ok(TWO_RECONCILERS.includes('Complete(&secretsReconciler{})') && !TWO_RECONCILERS.includes('noop'), 'the program was rewritten');
  const program = writeGoProgram(TWO_RECONCILERS);
  const secretsLine = readFileSync(program.mainFile, 'utf8').split('\n').findIndex((l) => l.startsWith('func (r *secretsReconciler) Reconcile(')) + 1;
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  try {
    const scenario = join(program.dir, 'scenario.yaml');
    writeFileSync(
      scenario,
      `objects:
  - { apiVersion: v1, kind: ConfigMap, metadata: { name: same, namespace: default }, data: { a: "1" } }
  - { apiVersion: v1, kind: Secret, metadata: { name: same, namespace: default }, stringData: { b: "2" } }
`,
    );
    const first = dc.waitForEvent('stopped');
    await launch(dc, { program: program.dir, scenario, lineBreakpoints: true }, { functionBreakpoints: [{ name: 'Secret default/same' }] });
    const stop = (await first) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'breakpoint');
    const inside = dc.waitForEvent('stopped');
    await dc.stepInRequest({ threadId: stop.body.threadId ?? 1 });
    const entered = (await inside) as DebugProtocol.StoppedEvent;
    assert.equal(entered.body.reason, 'step');
    const frame = await topFrame(dc, entered.body.threadId ?? 0);
    assert.match(frame.name, /\(\*secretsReconciler\)\.Reconcile$/);
    assert.equal(frame.source?.path, program.mainFile);
    assert.equal(frame.line, secretsLine);
    await dc.disconnectRequest({});
  } finally {
    await dc.stop();
    program.dispose();
  }
});
