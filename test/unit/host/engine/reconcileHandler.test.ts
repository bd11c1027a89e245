import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideRequeue, handleReconcileOutcome, outcomeFromReturn, outcomeFromThrow, type RequeueTarget } from '../../../../src/host/engine/reconcileHandler.ts';
import { TerminalError, isTerminalError } from '../../../../src/controllerProtocol/api.ts';

function recordingQueue(): RequeueTarget & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    forget: (k) => calls.push(`forget ${k}`),
    addRateLimited: (k) => calls.push(`addRateLimited ${k}`),
    addAfter: (k, ms) => calls.push(`addAfter ${k} ${ms}`),
  };
}

test('success forgets the key so its backoff starts over', () => {
  const q = recordingQueue();
  const d = handleReconcileOutcome(q, 'default/web', outcomeFromReturn(undefined));
  assert.deepEqual(d, { action: 'forget' });
  assert.deepEqual(q.calls, ['forget default/web']);
});

test('an error puts the key back through the rate limiter', () => {
  const q = recordingQueue();
  const d = handleReconcileOutcome(q, 'default/web', outcomeFromThrow(new Error('boom'), false));
  assert.deepEqual(d, { action: 'addRateLimited', reason: 'error' });
  assert.deepEqual(q.calls, ['addRateLimited default/web']);
});

test('a terminal error is forgotten, not retried', () => {
  const err = new TerminalError('bad spec');
  assert.ok(isTerminalError(err));
  const q = recordingQueue();
  const d = handleReconcileOutcome(q, 'a', outcomeFromThrow(err, isTerminalError(err)));
  assert.deepEqual(d, { action: 'forgetTerminal' });
  assert.deepEqual(q.calls, ['forget a']);
});

test('requeueAfter forgets, then adds after the delay', () => {
  const q = recordingQueue();
  const d = handleReconcileOutcome(q, 'a', outcomeFromReturn({ requeueAfter: 5000 }));
  assert.deepEqual(d, { action: 'addAfter', delayMs: 5000 });
  assert.deepEqual(q.calls, ['forget a', 'addAfter a 5000']);
});

test('requeue: true is rate limited; requeueAfter wins over requeue', () => {
  assert.deepEqual(decideRequeue(outcomeFromReturn({ requeue: true })), { action: 'addRateLimited', reason: 'requeue' });
  assert.deepEqual(decideRequeue(outcomeFromReturn({ requeue: true, requeueAfter: 10 })), { action: 'addAfter', delayMs: 10 });
  assert.deepEqual(decideRequeue(outcomeFromReturn({ requeueAfter: 0 })), { action: 'forget' });
});

test('a thrown non-Error still becomes an error outcome', () => {
  const o = outcomeFromThrow('just a string', false);
  assert.equal(o.kind, 'error');
  assert.equal(o.kind === 'error' && o.error.message, 'just a string');
});

test('a thrown non-Error shows no stack of the host\'s own frames, but says why there is none', () => {
  for (const [thrown, kind] of [['a string', 'a string'], [null, 'null'], [{ code: 42 }, 'an object'], [undefined, 'undefined'], [Symbol('s'), 'a symbol']] as const) {
    const o = outcomeFromThrow(thrown, false);
    assert.ok(o.kind === 'error');
    assert.equal(o.error.stack, `${kind} was thrown, not an Error, so there is no stack trace (throw new Error(…) to have one)`);
  }
});

test('a result whose requeueAfter or requeue has the wrong type is an error naming it, not a silent forget', () => {
  const late = outcomeFromReturn({ requeueAfter: 'soon' });
  assert.ok(late.kind === 'error');
  assert.equal(late.error.message, 'reconcile returned requeueAfter "soon": not a number of milliseconds (return { requeueAfter: 5000 } to run again in 5 s)');
  assert.deepEqual(decideRequeue(late), { action: 'addRateLimited', reason: 'error' });
  const odd = outcomeFromReturn({ requeue: 'yes' });
  assert.ok(odd.kind === 'error');
  assert.match(odd.error.message, /^reconcile returned requeue "yes": not true or false/);
  // What a reconcile returning the object it wrote, or nothing, gives is no requeue.
  assert.deepEqual(decideRequeue(outcomeFromReturn({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } })), { action: 'forget' });
  assert.deepEqual(decideRequeue(outcomeFromReturn(42)), { action: 'forget' });
});

test('a thrown value that cannot be shown as JSON (a cycle, undefined) still becomes an error outcome with a message', () => {
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic.self = cyclic;
  const o = outcomeFromThrow(cyclic, false);
  assert.equal(o.kind === 'error' && o.error.message, '[object Object]');
  const u = outcomeFromThrow(undefined, false);
  assert.equal(u.kind === 'error' && u.error.message, 'undefined');
});

test('a huge error message is cut to 16 KiB, saying how much was left out', () => {
  const o = outcomeFromThrow(new Error('z'.repeat(100_000)), false);
  assert.ok(o.kind === 'error');
  assert.match(o.error.message, /^z{16384}… \(83616 more characters\)$/);
});
