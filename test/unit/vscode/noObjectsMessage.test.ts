import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { noObjectsMessage } from '../../../src/vscode/commands/noObjectsMessage.ts';

// Open Object (Describe, Why (Not)?…) from the palette with nothing to offer: after Disconnect it
// said "Run Watch Resource… first", which cannot work with no cluster.

const contributed = new Set(
  (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command),
);

test('no cluster connected: says so and offers to start the simulated cluster or connect', () => {
  const m = noObjectsMessage(0);
  assert.match(m.text, /no cluster is connected/);
  assert.doesNotMatch(m.text, /Watch Resource/);
  assert.deepEqual(m.actions.map((a) => a.title), ['Start Simulated Cluster', 'Connect to Cluster…']);
  for (const a of m.actions) assert.ok(contributed.has(a.command), `${a.command} is a command of the extension`);
});

test('a cluster with no objects watched: offers Watch Resource…', () => {
  const m = noObjectsMessage(1);
  assert.match(m.text, /no cached objects yet/);
  assert.deepEqual(m.actions, [{ title: 'Watch Resource…', command: 'controllerLab.watchResource' }]);
  assert.ok(contributed.has('controllerLab.watchResource'));
});
