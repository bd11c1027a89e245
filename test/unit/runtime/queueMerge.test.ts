import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeQueues } from '../../../src/runtime/queueMerge.ts';
import type { QueueSnapshot } from '../../../src/controllerProtocol/records.ts';

// A Go manager's controllers each have a queue; the run's "queue" (the tree's Workqueue row, the
// CLI's --timeout report) is all of them, and a key held by two controllers is listed twice.

test('several controllers\' queues: counts add up, keys say whose they are, queued before processing before waiting', () => {
  const configs: QueueSnapshot = { at: 10, depth: 1, processing: 0, waiting: 1, keys: [{ key: 'default/same', state: 'queued', retries: 0 }, { key: 'default/slow', state: 'waiting', retries: 2, reason: 'backoff' }] };
  const secrets: QueueSnapshot = { at: 20, depth: 1, processing: 1, waiting: 0, keys: [{ key: 'default/same', state: 'processing', retries: 0 }, { key: 'default/next', state: 'queued', retries: 0 }] };
  const merged = mergeQueues(new Map([['configs', configs], ['secrets', secrets]]));
  assert.equal(merged.at, 20);
  assert.deepEqual([merged.depth, merged.processing, merged.waiting], [2, 1, 1]);
  assert.deepEqual(merged.keys.map((k) => `${k.key} ${k.state}`), ['configs default/same queued', 'secrets default/next queued', 'secrets default/same processing', 'configs default/slow waiting']);
  assert.equal(merged.omitted, undefined);
});
