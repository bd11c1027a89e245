import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { askUntil, launch, startClient } from './dapClient.ts';
import { writeGoProgram } from '../unit/runtime/support/goPrograms.ts';

// "Why (not)?" over DAP for an event merged into a key already queued (deduplicated), for a
// TypeScript controller and its Go port (test/fixtures/whyDedup: one worker held 3 s by the
// Deployment `slow` while `web` is queued behind it and changes again).

const FIXTURE = (name: string) => fileURLToPath(new URL(`../fixtures/whyDedup/${name}`, import.meta.url));
const SCENARIO = FIXTURE('scenario.yaml');

/** The answer's change blocks: a heading (`MODIFIED rv 12:`) and its lines. */
function changes(text: string): string[] {
  return text.split(/\n(?=\S)/).slice(1);
}

async function answersDeduplicated(dc: DebugClient): Promise<void> {
  const merged = /^ {4}Queued\? deduplicated: default\/web was already queued, so its next reconcile serves this event too$/m;
  // Reconciled once the slow reconcile lets the worker go.
  const text = await askUntil(dc, 'why Deployment default/web', new RegExp(`${merged.source}\\n {4}Reconciled\\? yes`, 'm'));
  const block = changes(text).find((c) => merged.test(c));
  assert.ok(block, text);
  // The event was received, passed (no predicates), mapped to its own key, merged, and the one
  // reconcile after it served it together with the event it was merged into.
  assert.match(block, /^MODIFIED rv \d+:\n {2}slow-web: reconciled \(#(\d+)\)$/m, text);
  assert.match(block, /^ {4}Mapped to\? Deployment default\/web \(For\)$/m, text);
  const served = /^ {4}Reconciled\? yes, reconcile #(\d+) of default\/web at /m.exec(block)?.[1];
  assert.ok(served, text);
  // The change it was merged into was queued and served by the same reconcile, which says so.
  const queued = changes(text).find((c) => c !== block && /Queued\? yes, neither deduplicated nor rate-limited/.test(c) && c.includes(`reconcile #${served} of default/web`));
  assert.ok(queued, `no change queued and served by reconcile #${served}:\n${text}`);
  const queuedRv = /^\w+ rv (\d+):/.exec(queued)?.[1];
  assert.match(block, new RegExp(`^ {4}Reconciled\\? yes, reconcile #${served} of default/web at [\\d:.]+, one reconcile for this event and (?:.*, )?\\w+ rv ${queuedRv}\\b`, 'm'), text);

  // The custom request the VS Code command sends says the same.
  const custom = (await dc.customRequest('controllerLab.why', { kind: 'Deployment', key: 'default/web' })).body as { text: string };
  assert.match(custom.text, merged);
}

test('why (not)? over DAP: an event merged into a key already queued, TypeScript', { timeout: 180_000 }, async () => {
  const dc = await startClient();
  try {
    await launch(dc, { controller: FIXTURE('controller.ts'), scenario: SCENARIO });
    await answersDeduplicated(dc);
  } finally {
    await dc.stop();
  }
});

test('why (not)? over DAP: an event merged into a key already queued, Go', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(readFileSync(FIXTURE('main.go'), 'utf8'));
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  try {
    await launch(dc, { program: program.dir, scenario: SCENARIO });
    await answersDeduplicated(dc);
  } finally {
    await dc.stop();
    program.dispose();
  }
});
