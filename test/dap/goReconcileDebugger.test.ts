import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { expand, isAlive, launch, scope, startClient, topFrame, valueOf } from './dapClient.ts';
import { BROKEN_PROGRAM, GO_EXAMPLE, GO_EXAMPLE_SCENARIO, PANICKING_PROGRAM, PANIC_SCENARIO, SILENT_PROGRAM, TWO_CONTROLLERS_PROGRAM, UNSERVED_KIND_PROGRAM, writeGoProgram } from '../unit/runtime/support/goPrograms.ts';

// The reconcile debugger on a Go controller-runtime program (go/examples/configmap-mirror, which
// calls controllerlab.Wrap), through the standalone adapter as VS Code drives it: `go build` for
// real, the program against a simulated cluster seeded by the example's scenario.

const RECONCILE_LINE = readFileSync(join(GO_EXAMPLE, 'main.go'), 'utf8').split('\n').findIndex((l) => l.startsWith('func (r *mirrorReconciler) Reconcile(')) + 1;

async function goClient(): Promise<DebugClient> {
  const dc = await startClient();
  // The first launch builds the program (a few seconds with a warm Go build cache).
  dc.defaultTimeout = 180_000;
  return dc;
}

test('Go: a reconcile breakpoint on a named object stops there with the scenario\'s object, steps forward and back', { timeout: 600_000 }, async () => {
  const dc = await goClient();
  try {
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, buildFlags: '-trimpath=false' }, { functionBreakpoints: [{ name: 'ConfigMap default/app-config' }] });
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'breakpoint');
    const threads = await dc.threadsRequest();
    assert.deepEqual(threads.body.threads.map((t) => t.name), ['worker 1']);

    const frame = await topFrame(dc, stop.body.threadId ?? 1);
    assert.match(frame.name, /^reconcile ConfigMap default\/app-config #\d+ · ADDED rv \d+$/);
    // The frame points at the program's Reconcile method.
    assert.equal(frame.source?.path, join(GO_EXAMPLE, 'main.go'));
    assert.equal(frame.line, RECONCILE_LINE);

    const object = await scope(dc, frame.id, 'Object');
    assert.equal(valueOf(await expand(dc, object, 'data'), 'greeting'), '"hello"');
    assert.equal(valueOf(await expand(dc, object, 'metadata'), 'name'), '"app-config"');
    const writesBefore = await scope(dc, frame.id, 'Writes');
    assert.equal(writesBefore[0]?.name, '(not run yet)');
    const request = await scope(dc, frame.id, 'Request');
    const cacheRv = valueOf(request, 'cacheResourceVersion');

    // next: app-config's reconcile runs (creating its mirror); the debugger stops on the next one.
    const nextStop = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: 1 });
    assert.equal(((await nextStop) as DebugProtocol.StoppedEvent).body.reason, 'step');
    const next = await topFrame(dc, 1);
    assert.ok(next.id > frame.id, `a later reconcile: ${next.name}`);

    // stepBack: app-config's reconcile again, recorded, with the write the server answered.
    const backStop = dc.waitForEvent('stopped');
    await dc.stepBackRequest({ threadId: 1 });
    await backStop;
    const back = await topFrame(dc, 1);
    assert.equal(back.id, frame.id);
    assert.equal(valueOf(await scope(dc, back.id, 'Request'), 'cacheResourceVersion'), cacheRv);
    const writes = await scope(dc, back.id, 'Writes');
    assert.deepEqual(writes.map((w) => w.name.replace(/^\d+: /, '')), ['create ConfigMap default/app-config-mirror']);
    const result = await scope(dc, back.id, 'Result');
    assert.equal(valueOf(await expand(dc, result, 'requeue'), 'action'), '"forget"');
    // The cache as that reconcile saw it: no mirror yet.
    const ev = await dc.evaluateRequest({ expression: 'cache.list("ConfigMap").filter((c) => c.metadata.name === "app-config-mirror").length', frameId: back.id, context: 'watch' });
    assert.equal(ev.body.result, '0');
  } finally {
    await dc.stop();
  }
});

test('Go: stop on entry, then disconnect leaves no Go process behind', { timeout: 600_000 }, async () => {
  const dc = await goClient();
  let pid = 0;
  const infoLines: { category?: string; output: string }[] = [];
  dc.on('output', (e: DebugProtocol.OutputEvent) => {
    const m = /Go process pid (\d+)/.exec(e.body.output);
    if (m) pid = Number(m[1]);
    if (e.body.output.includes('"level":"info"')) infoLines.push({ category: e.body.category, output: e.body.output });
  });
  const stopped = dc.waitForEvent('stopped');
  await launch(dc, { program: join(GO_EXAMPLE, 'main.go'), scenario: GO_EXAMPLE_SCENARIO, stopOnEntry: true });
  assert.equal(((await stopped) as DebugProtocol.StoppedEvent).body.reason, 'entry');
  assert.ok(pid > 0 && isAlive(pid), 'the Go program runs while stopped');
  await dc.disconnectRequest({});
  await dc.stop();
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(isAlive(pid), false, `Go controller ${pid} is gone`);
  // controller-runtime logs its start-up to stderr at info level: ordinary output, not errors in red.
  assert.ok(infoLines.some((l) => l.output.includes('Starting EventSource')), `info lines: ${JSON.stringify(infoLines)}`);
  assert.deepEqual(infoLines.filter((l) => l.category !== 'stdout'), []);
});

test('Go: a Go process killed while stopped ends the debug session, saying so', { timeout: 600_000 }, async () => {
  const dc = await goClient();
  try {
    let pid = 0;
    const outputs: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => {
      outputs.push(e.body.output);
      const m = /Go process pid (\d+)/.exec(e.body.output);
      if (m) pid = Number(m[1]);
    });
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, stopOnEntry: true });
    await stopped;
    const terminated = dc.waitForEvent('terminated');
    process.kill(pid, 'SIGKILL');
    await terminated;
    assert.match(outputs.join(''), new RegExp(`the Go controller process \\(pid ${pid}\\) exited \\(signal SIGKILL\\) during reconcile #\\d+ ConfigMap \\S+ \\(not started\\)`));
  } finally {
    await dc.stop();
  }
});

test('Go: a program that does not build fails the launch, go\'s file:line in the output', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(BROKEN_PROGRAM);
  const dc = await goClient();
  try {
    const outputs: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => outputs.push(e.body.output));
    await assert.rejects(launch(dc, { program: program.dir }), /could not start .*go build failed/s);
    assert.ok(outputs.join('').includes(`${program.mainFile}:4:2: undefined: undefinedThing`), outputs.join(''));
  } finally {
    await dc.stop();
    program.dispose();
  }
});

test('Go: a program that never connects ends the session after "connectTimeoutMs", saying how to add controllerlab.Wrap', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(SILENT_PROGRAM);
  const dc = await goClient();
  try {
    const outputs: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => outputs.push(e.body.output));
    const terminated = dc.waitForEvent('terminated');
    await launch(dc, { program: program.dir, connectTimeoutMs: 2000 });
    await terminated;
    const text = outputs.join('');
    assert.match(text, /Controller connect failed: the Go program did not connect to Controller Lab within 2 s: does its main\.go call controllerlab\.Wrap\(mgr\)\?/);
    assert.match(text, /mgr = controllerlab\.Wrap\(mgr\)/);
  } finally {
    await dc.stop();
    program.dispose();
  }
});

test('Go: a panicking reconcile stops as an exception, and the program lives on to retry it', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(PANICKING_PROGRAM);
  const dc = await goClient();
  try {
    const stopped = dc.waitForEvent('stopped');
    const scenario = join(program.dir, 'scenario.yaml');
    writeFileSync(scenario, PANIC_SCENARIO);
    await launch(dc, { program: program.dir, scenario });
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'exception');
    const info = await dc.exceptionInfoRequest({ threadId: 1 });
    assert.equal(info.body.exceptionId, 'Panic');
    assert.match(info.body.description ?? '', /^panic: kaboom: cannot mirror boom \[recovered\]/);
    // Continue: the other ConfigMap reconciles, then controller-runtime retries the panicking key.
    const again = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: 1 });
    assert.equal(((await again) as DebugProtocol.StoppedEvent).body.reason, 'exception');
    const retry = await topFrame(dc, 1);
    assert.match(retry.name, /^reconcile ConfigMap default\/boom #\d+ · requeue$/);
    const queue = await scope(dc, retry.id, 'Queue');
    const boom = await expand(dc, await expand(dc, queue, 'keys'), 'default/boom');
    assert.ok(Number(valueOf(boom, 'retries')) >= 1);
  } finally {
    await dc.stop();
    program.dispose();
  }
});

test('Go: a manager with two controllers shows a thread per controller worker; a Secret breakpoint stops on the secrets thread', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(TWO_CONTROLLERS_PROGRAM);
  const dc = await goClient();
  try {
    const scenario = join(program.dir, 'scenario.yaml');
    writeFileSync(
      scenario,
      `objects:
  - { apiVersion: v1, kind: ConfigMap, metadata: { name: same, namespace: default }, data: { a: "1" } }
  - { apiVersion: v1, kind: Secret, metadata: { name: same, namespace: default }, stringData: { b: "2" } }
`,
    );
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { program: program.dir, scenario }, { functionBreakpoints: [{ name: 'Secret default/same' }] });
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'breakpoint');
    const threads = (await dc.threadsRequest()).body.threads;
    assert.deepEqual(threads.map((t) => t.name).sort(), ['configs worker 1', 'secrets worker 1']);
    const secrets = threads.find((t) => t.name === 'secrets worker 1');
    assert.equal(stop.body.threadId, secrets?.id);
    const frame = await topFrame(dc, secrets?.id ?? 0);
    assert.match(frame.name, /^reconcile Secret default\/same #\d+ · ADDED rv \d+$/);
    const request = await scope(dc, frame.id, 'Request');
    assert.equal(valueOf(request, 'controller'), '"secrets"');
  } finally {
    await dc.stop();
    program.dispose();
  }
});

test('Go: a watched kind the cluster does not serve is one line in the Debug Console, within seconds, with how to install it', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(UNSERVED_KIND_PROGRAM);
  const dc = await goClient();
  try {
    let outputs = '';
    let builtAt = 0;
    const said = new Promise<number>((resolve) => {
      dc.on('output', (e: DebugProtocol.OutputEvent) => {
        outputs += e.body.output;
        if (!builtAt && /Go process pid \d+/.test(e.body.output)) builtAt = Date.now();
        if (/the cluster does not serve kind Widget \(example\.com\/v1\); install its CustomResourceDefinition/.test(outputs)) resolve(Date.now());
      });
    });
    await launch(dc, { program: program.dir });
    const at = await said;
    assert.ok(builtAt === 0 || at - builtAt < 10_000, `said ${at - builtAt} ms after the program started:\n${outputs}`);
    assert.equal(outputs.match(/does not serve kind Widget/g)?.length, 1, outputs);
  } finally {
    await dc.stop();
    program.dispose();
  }
});
