import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stderrRuns } from '../../../src/debug/stderrLines.ts';

// A Go controller's stderr in the Debug Console: its logger's info lines are ordinary output, the
// rest (errors, panics, anything unrecognised) stays stderr.

test('zap console and JSON info lines and klog info lines show as output; errors and other text stay stderr', () => {
  const text = [
    '2026-11-28T19:34:20Z\tINFO\tsetup\tStarting manager',
    '{"level":"info","ts":"2026-11-28T19:34:20Z","msg":"Starting EventSource"}',
    'I1128 19:34:20.123456   7148 leaderelection.go:250] attempting to acquire leader lease',
    '2026-11-28T19:34:21Z\tERROR\tReconciler error\t{"controller": "widget"}',
    'panic: boom',
    '{"level":"error","msg":"Reconciler error"}',
    '2026-11-28T19:34:22Z\tDEBUG\tevents\tNormal',
    'a partial line',
  ].join('\n');
  assert.deepEqual(stderrRuns(text), [
    { category: 'stdout', text: '2026-11-28T19:34:20Z\tINFO\tsetup\tStarting manager\n{"level":"info","ts":"2026-11-28T19:34:20Z","msg":"Starting EventSource"}\nI1128 19:34:20.123456   7148 leaderelection.go:250] attempting to acquire leader lease\n' },
    { category: 'stderr', text: '2026-11-28T19:34:21Z\tERROR\tReconciler error\t{"controller": "widget"}\npanic: boom\n{"level":"error","msg":"Reconciler error"}\n' },
    { category: 'stdout', text: '2026-11-28T19:34:22Z\tDEBUG\tevents\tNormal\n' },
    { category: 'stderr', text: 'a partial line' },
  ]);
});
