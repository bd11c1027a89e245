import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { FAILING_CONTROLLER, RS_CONTROLLER, RS_SCENARIO, expand, isAlive, launch, scope, startClient, topFrame, valueOf } from './dapClient.ts';
import { mergePatch } from './simHttpWrite.ts';

test('a breakpoint on a named object stops there, shows the scenario object, steps forward and back', async () => {
  const dc = await startClient();
  try {
    const outputs: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => outputs.push(e.body.output));
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO }, { functionBreakpoints: [{ name: 'ReplicaSet default/web' }] });
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'breakpoint');

    const threads = await dc.threadsRequest();
    assert.deepEqual(threads.body.threads.map((t) => t.name), ['worker 1']);
    const frame = await topFrame(dc, stop.body.threadId ?? 1);
    assert.match(frame.name, /^reconcile ReplicaSet default\/web #\d+ · ADDED rv \d+$/);

    const object = await scope(dc, frame.id, 'Object');
    const spec = await expand(dc, object, 'spec');
    assert.equal(valueOf(spec, 'replicas'), '3');
    const writesBefore = await scope(dc, frame.id, 'Writes');
    assert.equal(writesBefore[0]?.name, '(not run yet)');
    const webRequest = await scope(dc, frame.id, 'Request');
    const webCacheRv = Number(JSON.parse(valueOf(webRequest, 'cacheResourceVersion') ?? '"0"'));

    // evaluate runs against the cache as this reconcile sees it
    const ev = await dc.evaluateRequest({ expression: 'obj.spec.replicas + cache.list("ReplicaSet").length', frameId: frame.id, context: 'repl' });
    assert.equal(ev.body.result, '5');

    // next: the web reconcile runs (creating pods); the api ReplicaSet, whose pod event came in
    // meanwhile, is next in the queue
    const nextStop = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: 1 });
    const afterNext = (await nextStop) as DebugProtocol.StoppedEvent;
    assert.equal(afterNext.body.reason, 'step');
    const next = await topFrame(dc, 1);
    assert.match(next.name, /^reconcile ReplicaSet default\/api #\d+ · ADDED Pod default\/api-0 rv \d+/);
    const nextRequest = await scope(dc, next.id, 'Request');
    const nextCacheRv = Number(JSON.parse(valueOf(nextRequest, 'cacheResourceVersion') ?? '"0"'));
    assert.ok(nextCacheRv > webCacheRv, `cache moved on: ${nextCacheRv} > ${webCacheRv}`);

    // stepBack: the web reconcile again, recorded, with its writes and the earlier cache RV
    const backStop = dc.waitForEvent('stopped');
    await dc.stepBackRequest({ threadId: 1 });
    await backStop;
    const back = await topFrame(dc, 1);
    assert.equal(back.id, frame.id);
    const backRequest = await scope(dc, back.id, 'Request');
    assert.equal(valueOf(backRequest, 'cacheResourceVersion'), JSON.stringify(String(webCacheRv)));
    const writes = await scope(dc, back.id, 'Writes');
    assert.deepEqual(
      writes.filter((w) => w.name.includes('create')).map((w) => w.name.replace(/^\d+: /, '')),
      ['create Pod default/web-0', 'create Pod default/web-1', 'create Pod default/web-2'],
    );
    const evBack = await dc.evaluateRequest({ expression: 'cache.list("Pod", { labelSelector: "app=web" }).length', frameId: back.id, context: 'watch' });
    assert.equal(evBack.body.result, '0', 'the cache as it was before web created its pods');
    assert.ok(outputs.some((o) => o.includes('creating web-0')), 'ctx.log arrives as output');
  } finally {
    await dc.stop();
  }
});

test('a throwing reconcile stops on the error and is retried with backoff', async () => {
  const dc = await startClient();
  try {
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { controller: FAILING_CONTROLLER, scenario: RS_SCENARIO });
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'exception');
    const info = await dc.exceptionInfoRequest({ threadId: 1 });
    assert.match(info.body.description ?? '', /boom: web cannot be reconciled/);
    const frame = await topFrame(dc, 1);
    const error = await scope(dc, frame.id, 'Error');
    assert.match(valueOf(error, 'message') ?? '', /boom/);
    const requeue = await expand(dc, error, 'requeue');
    assert.equal(valueOf(requeue, 'action'), '"addRateLimited"');
    // It threw before writing anything: the Writes scope says so rather than opening on nothing.
    const writes = await scope(dc, frame.id, 'Writes');
    assert.deepEqual(writes.map((w) => `${w.name}: ${w.value}`), ['(none): "this reconcile wrote nothing"']);

    // the next reconcile is the same key, brought back by the rate limiter
    const again = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: 1 });
    assert.equal(((await again) as DebugProtocol.StoppedEvent).body.reason, 'step');
    const retry = await topFrame(dc, 1);
    assert.match(retry.name, /^reconcile ReplicaSet default\/web #\d+ · requeue$/);
    const queue = await scope(dc, retry.id, 'Queue');
    const web = await expand(dc, await expand(dc, queue, 'keys'), 'default/web');
    assert.equal(valueOf(web, 'retries'), '1');
  } finally {
    await dc.stop();
  }
});

test('disconnect ends the controller host process', async () => {
  const dc = await startClient();
  let pid = 0;
  dc.on('output', (e: DebugProtocol.OutputEvent) => {
    const m = /host pid (\d+)/.exec(e.body.output);
    if (m) pid = Number(m[1]);
  });
  const stopped = dc.waitForEvent('stopped');
  await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO, stopOnEntry: true });
  assert.equal(((await stopped) as DebugProtocol.StoppedEvent).body.reason, 'entry');
  assert.ok(pid > 0 && isAlive(pid), 'the host runs while stopped');
  await dc.disconnectRequest({});
  await dc.stop();
  for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(isAlive(pid), false, `controller host ${pid} is gone`);
});

test('a controller that does not compile fails the launch with file:line, said once in the Debug Console', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-broken-'));
  const broken = join(dir, 'broken.ts');
  writeFileSync(broken, "import { defineController } from 'controller-lab';\nexport default defineController({ name: 'broken', reconcile( });\n");
  const dc = await startClient();
  const printed: string[] = [];
  dc.on('output', (e: DebugProtocol.OutputEvent) => printed.push(e.body.output));
  try {
    const init = dc.waitForEvent('initialized');
    await dc.initializeRequest();
    const launched = dc.launchRequest({ controller: broken, cluster: 'sim' } as DebugProtocol.LaunchRequestArguments);
    await init;
    await dc.configurationDoneRequest();
    await assert.rejects(launched, /broken\.ts:2:\d+: error/);
    const saying = printed.filter((o) => /broken\.ts:2:\d+: error/.test(o));
    assert.equal(saying.length, 1, `the compiler's error, as the Debug Console shows it:\n${saying.join('\n---\n')}`);
  } finally {
    await dc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('attachJsDebugger starts the host under the inspector and asks the client to attach', async () => {
  const dc = await startClient();
  let pid = 0;
  dc.on('output', (e: DebugProtocol.OutputEvent) => {
    const m = /host pid (\d+)/.exec(e.body.output);
    if (m) pid = Number(m[1]);
  });
  try {
    const attach = dc.waitForEvent('controllerLab.attachJsDebugger');
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO, attachJsDebugger: true });
    const event = (await attach) as DebugProtocol.Event & { body: { port: number; url: string } };
    assert.ok(event.body.port > 0);
    assert.match(event.body.url, /^ws:\/\/127\.0\.0\.1:\d+\//);
  } finally {
    await dc.disconnectRequest({}).catch(() => {});
    await dc.stop();
  }
  for (let i = 0; i < 50 && pid && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (pid) assert.equal(isAlive(pid), false);
});

test('step in opens the host inspector and pauses before the user reconcile runs', async () => {
  const dc = await startClient();
  try {
    const entry = dc.waitForEvent('stopped');
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO, stopOnEntry: true });
    await entry;
    const attach = dc.waitForEvent('controllerLab.attachJsDebugger');
    await dc.stepInRequest({ threadId: 1 });
    const { body } = (await attach) as DebugProtocol.Event & { body: { url: string } };

    // Play the JavaScript debugger: attach over CDP, let the host run, expect the pause.
    const ws = new WebSocket(body.url);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    let id = 0;
    const send = (method: string, params: object = {}) => ws.send(JSON.stringify({ id: ++id, method, params }));
    const paused = new Promise<{ callFrames: { functionName: string }[] }>((resolve) => {
      ws.onmessage = (m) => {
        const msg = JSON.parse(String(m.data)) as { method?: string; params?: { callFrames: { functionName: string }[] } };
        if (msg.method === 'Debugger.paused' && msg.params) resolve(msg.params);
      };
    });
    send('Debugger.enable');
    send('Runtime.runIfWaitingForDebugger');
    const pause = await paused;
    assert.equal(pause.callFrames[0]?.functionName, 'call', 'paused at the debugger statement just before reconcile');
    const next = dc.waitForEvent('stopped');
    send('Debugger.resume');
    // the stepped-into reconcile finishes; the reconcile debugger stops at the next one
    assert.equal(((await next) as DebugProtocol.StoppedEvent).body.reason, 'step');
    ws.close();
  } finally {
    await dc.stop();
  }
});

test('continue runs to the next breakpoint hit, reverseContinue goes back to the previous one, pause stops', async () => {
  const dc = await startClient();
  try {
    const first = dc.waitForEvent('stopped');
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO }, { functionBreakpoints: [{ name: 'ReplicaSet default/web' }], exceptionFilters: [] });
    await first;
    const hit1 = await topFrame(dc, 1);
    const seq1 = Number(/#(\d+)/.exec(hit1.name)?.[1]);

    const second = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: 1 });
    assert.equal(((await second) as DebugProtocol.StoppedEvent).body.reason, 'breakpoint');
    const hit2 = await topFrame(dc, 1);
    const seq2 = Number(/#(\d+)/.exec(hit2.name)?.[1]);
    assert.match(hit2.name, /^reconcile ReplicaSet default\/web #/);
    assert.ok(seq2 > seq1 + 1, `another reconcile ran in between (#${seq1} → #${seq2})`);

    const back = dc.waitForEvent('stopped');
    await dc.reverseContinueRequest({ threadId: 1 });
    assert.equal(((await back) as DebugProtocol.StoppedEvent).body.reason, 'breakpoint');
    assert.equal((await topFrame(dc, 1)).id, seq1);

    // forward through history with next, back to the live reconcile
    for (let seq = seq1 + 1; seq <= seq2; seq++) {
      const step = dc.waitForEvent('stopped');
      await dc.nextRequest({ threadId: 1 });
      await step;
      assert.equal((await topFrame(dc, 1)).id, seq);
    }

    await dc.setFunctionBreakpointsRequest({ breakpoints: [] });
    await dc.continueRequest({ threadId: 1 });
    await new Promise((r) => setTimeout(r, 300));
    const paused = dc.waitForEvent('stopped');
    await dc.pauseRequest({ threadId: 1 });
    assert.equal(((await paused) as DebugProtocol.StoppedEvent).body.reason, 'pause');
    assert.match((await topFrame(dc, 1)).name, /^reconcile ReplicaSet default\//);
  } finally {
    await dc.stop();
  }
});

test('a change made while stopped before a reconcile is what that reconcile reads, and what its recorded Object shows', async () => {
  const dc = await startClient();
  try {
    let kubeconfig = '';
    const printed: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => {
      printed.push(e.body.output);
      kubeconfig ||= /\(kubeconfig (\S+)\)/.exec(e.body.output)?.[1] ?? '';
    });
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO }, { functionBreakpoints: [{ name: 'ReplicaSet default/web' }] });
    await stopped;
    const held = await topFrame(dc, 1);
    assert.equal(valueOf(await expand(dc, await scope(dc, held.id, 'Object'), 'spec'), 'replicas'), '3');

    // kubectl scale while stopped: the controller's informer gets it before the reconcile runs.
    assert.equal(await mergePatch(kubeconfig, '/apis/apps/v1/namespaces/default/replicasets/web', { spec: { replicas: 5 } }), 200);
    await new Promise((r) => setTimeout(r, 1500));
    const next = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: 1 });
    await next;
    const back = dc.waitForEvent('stopped');
    await dc.stepBackRequest({ threadId: 1 });
    await back;
    const ran = await topFrame(dc, 1);
    assert.match(ran.name, /^reconcile ReplicaSet default\/web #/);
    const writes = (await scope(dc, ran.id, 'Writes')).filter((w) => / create Pod /.test(w.name));
    assert.equal(writes.length, 5, 'it made the Pods of 5 replicas');
    assert.equal(valueOf(await expand(dc, await scope(dc, ran.id, 'Object'), 'spec'), 'replicas'), '5', 'the Object it read');
    assert.ok(printed.some((o) => /ReplicaSet default\/web changed while stopped .*rv \d+ → rv \d+/.test(o)), printed.join(''));
  } finally {
    await dc.stop();
  }
});
