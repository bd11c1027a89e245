import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildProgress } from '../../../src/runtime/buildProgress.ts';

// While a Go program builds, a line every 20 s says it still does and why it is long.

test('a build for Delve says every 20 s that it still builds and that its first build is long', (t) => {
  t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
  const lines: string[] = [];
  const stop = buildProgress((l) => lines.push(l), { delve: true });
  t.mock.timers.tick(19_999);
  assert.deepEqual(lines, []);
  t.mock.timers.tick(1);
  t.mock.timers.tick(20_000);
  assert.equal(lines.length, 2);
  assert.match(lines[0] ?? '', /^ {2}still building \(\d+ s; the first build for Delve compiles every package without optimisation: minutes, up to ten for a kubebuilder project; later ones seconds\)$/);
  stop(true);
  t.mock.timers.tick(60_000);
  assert.equal(lines.length, 3, lines.join('\n'));
  assert.match(lines[2] ?? '', /^built in \d+ s$/);
});

test('a plain build says a first build of controller-runtime takes minutes; a stopped one says nothing more', (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const lines: string[] = [];
  const stop = buildProgress((l) => lines.push(l));
  t.mock.timers.tick(20_000);
  assert.match(lines[0] ?? '', /^ {2}still building \(\d+ s; a first build of controller-runtime takes minutes, later ones seconds\)$/);
  stop(false);
  t.mock.timers.tick(60_000);
  assert.equal(lines.length, 1);
});
