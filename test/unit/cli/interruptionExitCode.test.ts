import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutShort } from '../../../src/cli/interruption.ts';
import type { QueueSnapshot, ReconcileRecord } from '../../../src/runtime/index.ts';

// Stopped by a signal, `run` says whether work was cut short by its exit code: a reconcile running,
// keys queued or retrying a failure are (130/143); an idle controller, or one whose keys only wait
// on their requeueAfter (a poll), is not (0, as a manager ends on its signal handler).

const idle: QueueSnapshot = { at: 0, depth: 0, processing: 0, waiting: 0, keys: [] };
const running = [{ seq: 1 } as ReconcileRecord];

test('a reconcile running, a key queued or a failure waiting to retry is work cut short', () => {
  assert.equal(cutShort(running, idle), true);
  assert.equal(cutShort([], { ...idle, depth: 1, keys: [{ key: 'default/web', state: 'queued', retries: 0 }] }), true);
  assert.equal(cutShort([], { ...idle, waiting: 1, keys: [{ key: 'default/web', state: 'waiting', retries: 2, reason: 'backoff' }] }), true);
  assert.equal(cutShort([], { ...idle, waiting: 3, omitted: 3, keys: [] }), true);
});

test('an idle controller, or one whose keys only wait on their requeueAfter, is not', () => {
  assert.equal(cutShort([], idle), false);
  assert.equal(cutShort([], { ...idle, waiting: 1, keys: [{ key: 'default/web', state: 'waiting', retries: 0, reason: 'after' }] }), false);
});
