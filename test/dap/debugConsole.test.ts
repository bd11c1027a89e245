import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { RS_CONTROLLER, RS_SCENARIO, launch, scope, startClient, topFrame, valueOf } from './dapClient.ts';

// The Debug Console while stopped on a reconcile: `req` is what the Request scope shows, and a bad
// expression answers an error the console prints on its line (not one VS Code raises as a
// notification: `showUser`).

/** The whole response, failed or not (DebugClient's requests reject with the message only). */
function rawRequest(dc: DebugClient, command: string, args: unknown): Promise<DebugProtocol.Response> {
  return new Promise((resolve) => (dc as unknown as { doSend(c: string, a: unknown, cb: (r: DebugProtocol.Response) => void): void }).doSend(command, args, resolve));
}

test('Debug Console: req.key is the Request scope\'s key; a bad expression is an error line, not a notification', async () => {
  const dc = await startClient();
  try {
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO, stopOnEntry: true });
    await stopped;
    const frame = await topFrame(dc, 1);
    const request = await scope(dc, frame.id, 'Request');
    const key = valueOf(request, 'key');
    assert.match(key ?? '', /^"default\/(web|api)"$/);

    for (const expression of ['req.key', 'req.kind', 'req.cacheResourceVersion']) {
      const ev = await dc.evaluateRequest({ expression, frameId: frame.id, context: 'repl' });
      assert.equal(ev.body.result, valueOf(request, expression.slice(4)), expression);
    }

    const missing = (await rawRequest(dc, 'evaluate', { expression: 'nosuch.thing', frameId: frame.id, context: 'repl' })) as DebugProtocol.ErrorResponse;
    assert.equal(missing.success, false);
    assert.equal(missing.message, 'ReferenceError: nosuch is not defined');
    assert.notEqual(missing.body?.error?.showUser, true, 'not raised as a notification');

    const broken = (await rawRequest(dc, 'evaluate', { expression: 'obj.spec.(', frameId: frame.id, context: 'repl' })) as DebugProtocol.ErrorResponse;
    assert.equal(broken.success, false);
    assert.match(broken.message ?? '', /^SyntaxError: /);
    assert.notEqual(broken.body?.error?.showUser, true);

    // The error is about what was typed: an unclosed call misses its `)`, not a `;` the user never typed.
    const unclosed = (await rawRequest(dc, 'evaluate', { expression: 'JSON.stringify(obj', frameId: frame.id, context: 'repl' })) as DebugProtocol.ErrorResponse;
    assert.equal(unclosed.message, 'SyntaxError: missing ) after argument list');
    const cut = (await rawRequest(dc, 'evaluate', { expression: 'JSON.stringify(', frameId: frame.id, context: 'repl' })) as DebugProtocol.ErrorResponse;
    assert.equal(cut.message, 'SyntaxError: Unexpected end of input', 'not the `}` of the function around it');

    // The session goes on: a good expression still evaluates after the bad ones.
    const ok = await dc.evaluateRequest({ expression: 'obj.metadata.name', frameId: frame.id, context: 'repl' });
    assert.equal(ok.body.result, JSON.stringify(key ? JSON.parse(key).split('/')[1] : ''));
  } finally {
    await dc.stop();
  }
});
