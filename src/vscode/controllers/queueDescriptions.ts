import type { QueueKeySnapshot, QueueSnapshot } from '../../runtime/index.ts';
import { count } from '../tree/format.ts';
import { formatMs } from './durationText.ts';

// How the Workqueue rows read: the queue's counts, and per key its state, retries and backoff.

export function queueDescription(q: QueueSnapshot): string {
  return `depth ${q.depth} · processing ${q.processing} · waiting ${q.waiting}`;
}

export function queueKeyDescription(k: QueueKeySnapshot, now: number): string {
  const parts: string[] = [k.state];
  if (k.retries) parts.push(count(k.retries, 'retry', 'retries'));
  if (k.state === 'waiting') {
    if (k.reason) parts.push(k.reason === 'after' ? 'requeueAfter' : 'backoff');
    if (k.readyAt !== undefined) parts.push(`${formatMs(Math.max(0, k.readyAt - now))} left`);
    else if (k.backoffMs !== undefined) parts.push(formatMs(k.backoffMs));
  }
  if (k.dirty) parts.push('re-added');
  return parts.join(' · ');
}
