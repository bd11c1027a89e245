import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { startClient } from './dapClient.ts';
import { GO_EXAMPLE, GO_EXAMPLE_SCENARIO } from '../unit/runtime/support/goPrograms.ts';

// A step in Go code under Delve must end with the thread stopped as the editor sees it. VS Code
// marks a thread running when the answer to its next / stepIn / stepOut / continue arrives, and
// on every `continued` event: a `stopped` that comes before either is undone, and the editor shows
// the goroutine running (no stack, no current line) while Delve holds it stopped.

const MAIN_GO = join(GO_EXAMPLE, 'main.go');
const GET_LINE = readFileSync(MAIN_GO, 'utf8').split('\n').findIndex((l) => l.includes('r.Get(ctx, req.NamespacedName, &src)')) + 1;

type Seen = { type: 'response'; command: string; seq: number } | { type: 'event'; event: string; threadId?: number };

test('Go: each Step Over in Reconcile under Delve answers, then stops: no continued event or answer after the stop', { timeout: 600_000 }, async () => {
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  // The order the messages come off the wire, before any promise resolves.
  const seen: Seen[] = [];
  const client = dc as unknown as { dispatch(body: string): void };
  const dispatch = client.dispatch.bind(dc);
  client.dispatch = (body: string) => {
    const m = JSON.parse(body) as DebugProtocol.ProtocolMessage;
    if (m.type === 'response') seen.push({ type: 'response', command: (m as DebugProtocol.Response).command, seq: (m as DebugProtocol.Response).request_seq });
    if (m.type === 'event') seen.push({ type: 'event', event: (m as DebugProtocol.Event).event, threadId: ((m as DebugProtocol.Event).body as { threadId?: number } | undefined)?.threadId });
    dispatch(body);
  };
  try {
    const initialized = dc.waitForEvent('initialized');
    await dc.initializeRequest({ adapterID: 'controller-lab', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const launched = dc.launchRequest({ cluster: 'sim', program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, lineBreakpoints: true } as DebugProtocol.LaunchRequestArguments);
    await initialized;
    await dc.setBreakpointsRequest({ source: { path: MAIN_GO }, breakpoints: [{ line: GET_LINE, condition: 'req.Name == "app-config"' }] });
    await dc.configurationDoneRequest();
    const first = dc.waitForEvent('stopped');
    await launched;
    const inside = (await first) as DebugProtocol.StoppedEvent;
    const goThread = inside.body.threadId ?? 0;
    assert.ok(goThread > 1000, `a goroutine thread: ${goThread}`);

    for (const command of ['next', 'next', 'next', 'next'] as const) {
      const from = seen.length;
      const stopped = dc.waitForEvent('stopped');
      await dc.nextRequest({ threadId: goThread });
      await stopped;
      // Whatever else is on its way for this step arrives within this pause.
      await new Promise((r) => setTimeout(r, 500));
      const step = seen.slice(from).filter((m) => m.type === 'response' ? m.command === command : m.event === 'stopped' || m.event === 'continued');
      const order = step.map((m) => (m.type === 'response' ? `answer ${m.command}` : m.event)).join(', ');
      const last = step.at(-1);
      assert.equal(last?.type === 'event' ? last.event : `answer ${last?.command}`, 'stopped', `the step's messages in order: ${order}`);
      assert.equal(step.filter((m) => m.type === 'event' && m.event === 'stopped').length, 1, order);
    }
    await dc.disconnectRequest({});
  } finally {
    await dc.stop();
  }
});
