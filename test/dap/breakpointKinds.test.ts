import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { launch, RS_CONTROLLER, RS_SCENARIO, startClient } from './dapClient.ts';

// A reconcile breakpoint on a kind the controller neither reconciles nor watches (a typo) can never
// stop: once the controller is up the editor is told so, next to the breakpoint, instead of the
// session running on in silence; the breakpoint on the right kind stops as ever.

test('a breakpoint on a kind the controller does not watch is marked unusable with the kinds it does; the right one stops', async () => {
  const dc = await startClient();
  try {
    const changed = dc.waitForEvent('breakpoint') as Promise<DebugProtocol.BreakpointEvent>;
    const stopped = dc.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO }, { functionBreakpoints: [{ name: 'ReplicaSte default/web' }, { name: 'ReplicaSet default/web' }] });
    const e = await changed;
    assert.equal(e.body.reason, 'changed');
    assert.equal(e.body.breakpoint.verified, false);
    assert.match(e.body.breakpoint.message ?? '', /No controller here reconciles or watches a kind named like "ReplicaSte" \(replicaset-controller reconciles or watches ReplicaSet, Pod\)/);
    const stop = await stopped;
    assert.match(stop.body.description ?? '', /reconcile ReplicaSet default\/web/);
  } finally {
    await dc.stop();
  }
});

// A reconcile breakpoint on one object the controller's caches do not hold (a misspelt name, an
// object not made yet) says so once the caches have synced, and still stops if that object comes.
test('a breakpoint on an object the caches do not hold says so once they have synced, and stays set', async () => {
  const dc = await startClient();
  try {
    const changed = dc.waitForEvent('breakpoint') as Promise<DebugProtocol.BreakpointEvent>;
    const stopped = dc.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO }, { functionBreakpoints: [{ name: 'ReplicaSet default/wbe' }, { name: 'ReplicaSet default/web' }] });
    const e = await changed;
    assert.equal(e.body.reason, 'changed');
    assert.equal(e.body.breakpoint.verified, true, 'it may still stop');
    assert.match(e.body.breakpoint.message ?? '', /^No ReplicaSet default\/wbe in the controller's cache: this breakpoint stops once one is made and reconciled .*`why ReplicaSet default\/wbe`/);
    const stop = await stopped;
    assert.match(stop.body.description ?? '', /reconcile ReplicaSet default\/web/);
  } finally {
    await dc.stop();
  }
});
