import { QUEUE_SNAPSHOT_KEYS, type QueueSnapshot } from '../controllerProtocol/index.ts';

// Several controllers' queues (a Go manager) as one snapshot for whoever shows "the queue" of a
// run: counts add up, and each key says whose it is (two controllers may hold the same key).

export function mergeQueues(queues: ReadonlyMap<string, QueueSnapshot>): QueueSnapshot {
  const merged: QueueSnapshot = { at: 0, depth: 0, processing: 0, waiting: 0, keys: [] };
  let listed = 0;
  for (const [controller, q] of queues) {
    merged.at = Math.max(merged.at, q.at);
    merged.depth += q.depth;
    merged.processing += q.processing;
    merged.waiting += q.waiting;
    listed += q.keys.length + (q.omitted ?? 0);
    for (const k of q.keys) merged.keys.push({ ...k, key: controller ? `${controller} ${k.key}` : k.key });
  }
  const order = { queued: 0, processing: 1, waiting: 2 } as const;
  merged.keys.sort((a, b) => order[a.state] - order[b.state]);
  merged.keys = merged.keys.slice(0, QUEUE_SNAPSHOT_KEYS);
  if (listed > merged.keys.length) merged.omitted = listed - merged.keys.length;
  return merged;
}
