// A damaged state dir never loses acknowledged writes without a word: a torn last line (a crash's
// partial append) is the only damage dropped silently; anything else stops the start with one line
// naming the file, the byte offset and what would be lost, and --accept-state-loss starts anyway
// with what can be read, saying each loss.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { SimCluster } from '../../../../src/sim/simCluster.ts';
import { putLine } from '../../../../src/sim/store/journalRecord.ts';
import { CM, configMap } from './helpers.ts';

// No compaction behind the tests' back: the journal stays as written until the crash.
const QUIET = { quietMs: 60_000, compactAfterBytes: 1 << 30 };

interface Crashed {
  dir: string;
  journal: string;
  /** resourceVersion of each ConfigMap written, by name. */
  rvs: Map<string, number>;
}

/** A state dir holding `count` acknowledged ConfigMap creates in its journal, as a crash leaves it. */
async function crashedWith(count: number): Promise<Crashed> {
  const dir = mkdtempSync(join(tmpdir(), 'sim-damage-'));
  const cluster = new SimCluster({ clock: new FakeClock(), stateDir: dir, persistence: QUIET });
  const rvs = new Map<string, number>();
  for (let i = 0; i < count; i++) rvs.set(`cm-${i}`, cluster.create(CM, 'default', configMap(`cm-${i}`)).resourceVersion);
  await cluster.whenDurable();
  const journal = join(dir, readdirSync(dir).find((f) => f.startsWith('journal-'))!);
  // Closed without its last snapshot, as kill -9 leaves it (close() would fold the journal).
  (cluster as unknown as { persistence: undefined }).persistence = undefined;
  await cluster.close();
  return { dir, journal, rvs };
}

function start(dir: string, acceptStateLoss = false): { cluster: SimCluster; logged: string[] } {
  const logged: string[] = [];
  const cluster = new SimCluster({ clock: new FakeClock(), stateDir: dir, acceptStateLoss, persistence: { ...QUIET, log: (l) => logged.push(l) } });
  return { cluster, logged };
}

/** The start's refusal: one line, naming the file, the offset and what would be lost, and the flag. */
function refusal(dir: string): string {
  let message = '';
  assert.throws(() => start(dir), (err: Error) => {
    assert.equal(err.name, 'StateFileError');
    message = err.message;
    return true;
  });
  assert.ok(!message.includes('\n'), `one line: ${message}`);
  assert.ok(message.endsWith(`; to start without it: controller-lab sim --state-dir ${dir} --accept-state-loss`), message);
  return message;
}

function names(cluster: SimCluster): string[] {
  return cluster.list(CM, { namespace: 'default' }).items.map((s) => s.object.metadata.name ?? '').filter((n) => n.startsWith('cm-'));
}

/** Byte offset of the line holding `needle`. */
function lineStart(text: string, needle: string): number {
  return Buffer.byteLength(text.slice(0, text.lastIndexOf('\n', text.indexOf(needle)) + 1));
}

test('the last lines zeroed (newlines too): the start stops naming the journal, the offset and the lost writes; accepted, the rest loads', async () => {
  const c = await crashedWith(5);
  try {
    const text = readFileSync(c.journal, 'utf8');
    const from = lineStart(text, '"name":"cm-3"');
    writeFileSync(c.journal, Buffer.concat([Buffer.from(text).subarray(0, from), Buffer.alloc(Buffer.byteLength(text) - from)]));
    const message = refusal(c.dir);
    assert.match(message, new RegExp(`^${c.journal}: damaged at byte ${from} \\(zeroed bytes, \\d+ bytes\\): every write after resourceVersion ${c.rvs.get('cm-2')} would be lost`));

    const { cluster, logged } = start(c.dir, true);
    try {
      assert.deepEqual(names(cluster), ['cm-0', 'cm-1', 'cm-2']);
      assert.equal(logged.filter((l) => l.startsWith('state loss accepted: ')).length, 1, logged.join('\n'));
      assert.match(logged[0]!, /damaged at byte \d+ \(zeroed bytes/);
    } finally {
      await cluster.close();
    }
    // Accepted once, the loss is behind it: the next start is clean.
    const again = start(c.dir);
    assert.deepEqual(names(again.cluster), ['cm-0', 'cm-1', 'cm-2']);
    await again.cluster.close();
  } finally {
    rmSync(c.dir, { recursive: true, force: true });
  }
});

test('a complete last line with a wrong checksum is damage, named with the write it held; lines zeroed in the middle too', async () => {
  const c = await crashedWith(4);
  try {
    const text = readFileSync(c.journal, 'utf8');
    const last = lineStart(text, '"name":"cm-3"');
    writeFileSync(c.journal, text.slice(0, last) + '00000000' + text.slice(last + 8));
    assert.match(refusal(c.dir), new RegExp(`: damaged at byte ${last} \\(checksum mismatch, \\d+ bytes\\): every write after resourceVersion ${c.rvs.get('cm-2')} would be lost \\(the put of configmaps default/cm-3 at resourceVersion ${c.rvs.get('cm-3')}\\)`));

    const middle = lineStart(text, '"name":"cm-1"');
    const end = text.indexOf('\n', middle) + 1;
    writeFileSync(c.journal, text.slice(0, middle) + '\u0000'.repeat(end - middle - 1) + '\n' + text.slice(end));
    assert.match(refusal(c.dir), new RegExp(`: damaged at byte ${middle} \\(zeroed bytes, \\d+ bytes\\): resourceVersion ${c.rvs.get('cm-1')} would be lost`));
    const { cluster, logged } = start(c.dir, true);
    try {
      assert.deepEqual(names(cluster), ['cm-0', 'cm-2', 'cm-3'], 'the writes after the damage are kept');
      assert.equal(logged.length, 1, logged.join('\n'));
    } finally {
      await cluster.close();
    }
  } finally {
    rmSync(c.dir, { recursive: true, force: true });
  }
});

test('a torn last line (a partial append) is dropped without a word', async () => {
  const c = await crashedWith(3);
  try {
    const text = readFileSync(c.journal, 'utf8');
    const last = lineStart(text, '"name":"cm-2"');
    writeFileSync(c.journal, text.slice(0, last + 40));
    const { cluster, logged } = start(c.dir);
    try {
      assert.deepEqual(names(cluster), ['cm-0', 'cm-1']);
      assert.deepEqual(logged, []);
    } finally {
      await cluster.close();
    }
  } finally {
    rmSync(c.dir, { recursive: true, force: true });
  }
});

test('state.json deleted with the journal kept is a missing piece, not a fresh cluster; accepted, the journal loads and the system namespaces are there', async () => {
  const c = await crashedWith(2);
  try {
    unlinkSync(join(c.dir, 'state.json'));
    assert.match(refusal(c.dir), new RegExp(`^${join(c.dir, 'state.json')}: missing while journal-\\d+\\.log, rv-reservation are there: every object it held \\(the namespaces among them\\) would be lost`));
    const { cluster, logged } = start(c.dir, true);
    try {
      assert.deepEqual(names(cluster), ['cm-0', 'cm-1']);
      assert.match(logged.join('\n'), /state loss accepted: .*state\.json: missing/);
      cluster.create(CM, 'default', configMap('after'));
      assert.ok(cluster.get({ group: '', version: 'v1', resource: 'namespaces' }, '', 'kube-system'));
    } finally {
      await cluster.close();
    }
  } finally {
    rmSync(c.dir, { recursive: true, force: true });
  }
});

test('the journal deleted with state.json kept is a missing piece: its acknowledged writes are named, not dropped without a word', async () => {
  const c = await crashedWith(3);
  try {
    unlinkSync(c.journal);
    const message = refusal(c.dir);
    assert.match(message, new RegExp(`^${c.journal}: missing while ${join(c.dir, 'state.json')} names it: every write after resourceVersion \\d+ would be lost`));
    const { cluster, logged } = start(c.dir, true);
    try {
      assert.deepEqual(names(cluster), []);
      assert.match(logged.join('\n'), /state loss accepted: .*journal-\d+\.log: missing/);
    } finally {
      await cluster.close();
    }
  } finally {
    rmSync(c.dir, { recursive: true, force: true });
  }
});

test('a clean stop, an idle start and a compaction leave a state dir that starts again without a word', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-damage-'));
  try {
    const first = new SimCluster({ clock: new FakeClock(), stateDir: dir, persistence: { quietMs: 60_000, compactAfterBytes: 1 } });
    first.create(CM, 'default', configMap('cm-0'));
    await first.whenDurable();
    first.create(CM, 'default', configMap('cm-1'));
    await first.whenDurable();
    await first.close();
    for (let i = 0; i < 2; i++) {
      const { cluster, logged } = start(dir);
      assert.deepEqual(names(cluster), ['cm-0', 'cm-1']);
      assert.deepEqual(logged, []);
      // Killed idle, as kill -9 leaves it: nothing written since the start's snapshot.
      (cluster as unknown as { persistence: undefined }).persistence = undefined;
      await cluster.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a journal file missing between others is a run of missing resourceVersions', async () => {
  const c = await crashedWith(2);
  try {
    const text = readFileSync(c.journal, 'utf8');
    const second = lineStart(text, '"name":"cm-1"');
    // The journal as three files, the middle one (five writes) gone.
    const n = Number(/journal-(\d+)\.log$/.exec(c.journal)![1]);
    writeFileSync(c.journal, text.slice(0, second));
    const obj = (JSON.parse(text.slice(second + 9, text.indexOf('\n', second))) as { o: object }).o;
    writeFileSync(join(c.dir, `journal-${n + 2}.log`), putLine(c.rvs.get('cm-1')! + 5, '', 'configmaps', 'default/cm-1', JSON.stringify(obj)));
    const from = c.rvs.get('cm-1')!;
    assert.match(refusal(c.dir), new RegExp(`journal-${n + 2}\\.log: resourceVersions ${from}–${from + 4} are missing before byte 0 \\(a journal file missing or cut\\)`));
  } finally {
    rmSync(c.dir, { recursive: true, force: true });
  }
});

test('state.json cut short stops the start naming its byte offset, the loss and the flag; accepted, the journal loads on its own', async () => {
  const c = await crashedWith(2);
  try {
    const snapshot = join(c.dir, 'state.json');
    const text = readFileSync(snapshot, 'utf8');
    writeFileSync(snapshot, text.slice(0, 100));
    assert.match(refusal(c.dir), new RegExp(`^${snapshot}: not valid JSON, truncated or damaged at byte 100 \\(.*\\): every object it holds would be lost`));
    const { cluster, logged } = start(c.dir, true);
    try {
      assert.deepEqual(names(cluster), ['cm-0', 'cm-1']);
      assert.match(logged.join('\n'), /state loss accepted: .*state\.json: not valid JSON/);
    } finally {
      await cluster.close();
    }
  } finally {
    rmSync(c.dir, { recursive: true, force: true });
  }
});

test('garbage in rv-reservation stops the start with the flag; accepted, resourceVersions carry on above every one read', async () => {
  const c = await crashedWith(2);
  try {
    writeFileSync(join(c.dir, 'rv-reservation'), '-5\n');
    assert.match(refusal(c.dir), new RegExp(`^${join(c.dir, 'rv-reservation')}: not a resourceVersion \\("-5\\\\n"\\): .*would be lost`));
    const { cluster, logged } = start(c.dir, true);
    try {
      assert.deepEqual(names(cluster), ['cm-0', 'cm-1']);
      assert.match(logged.join('\n'), /state loss accepted: .*rv-reservation: not a resourceVersion/);
      const after = cluster.create(CM, 'default', configMap('after')).resourceVersion;
      assert.ok(after > c.rvs.get('cm-1')!, `${after} > ${c.rvs.get('cm-1')}`);
    } finally {
      await cluster.close();
    }
  } finally {
    rmSync(c.dir, { recursive: true, force: true });
  }
});
