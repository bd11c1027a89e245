// A state dir as etcd keeps its data: a write is on disk before it is acknowledged, a crash at any
// point loses nothing acknowledged, and resourceVersions never go back across restarts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { SimCluster } from '../../../../src/sim/simCluster.ts';
import { putLine } from '../../../../src/sim/store/journalRecord.ts';
import { CM, CRD, configMap } from './helpers.ts';

const SECRETS = { group: '', version: 'v1', resource: 'secrets' };
const WIDGETS = { group: 'example.com', version: 'v1', resource: 'widgets' };
// No compaction behind the tests' back: they look at the files themselves.
const QUIET = { quietMs: 60_000 };

function withDir(fn: (dir: string) => Promise<void> | void): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-state-'));
    try {
      await fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** The state dir as a crash right now would leave it (no event-loop turn: nothing more gets written). */
function crashCopy(dir: string): string {
  const copy = `${dir}-crash`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(dir, copy, { recursive: true });
  return copy;
}

test('a write is on disk once whenDurable resolves: a cluster started from the dir without a clean stop has it', withDir(async (dir) => {
  const first = new SimCluster({ clock: new FakeClock(), stateDir: dir, persistence: QUIET });
  first.create(CM, 'default', configMap('a'));
  first.create(CRD, '', {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] },
  });
  first.create(WIDGETS, 'default', { metadata: { name: 'w' } });
  first.update(CM, 'default', 'a', { ...configMap('a'), data: { k: 'v2' } });
  first.create(CM, 'default', configMap('gone'));
  first.delete(CM, 'default', 'gone');
  await first.whenDurable();
  const savedRv = first.resourceVersion;

  const second = new SimCluster({ clock: new FakeClock(), stateDir: crashCopy(dir), persistence: QUIET });
  try {
    assert.ok(second.resourceVersion >= savedRv, `RV ${second.resourceVersion} went back from ${savedRv}`);
    assert.deepEqual(second.get(CM, 'default', 'a').object.data, { k: 'v2' });
    assert.deepEqual(second.list(CM, { namespace: 'default' }).items.map((i) => i.object.metadata.name), ['a']);
    assert.equal(second.get(WIDGETS, 'default', 'w').object.metadata.name, 'w', 'CRDs are served again');
    assert.ok(second.create(CM, 'default', configMap('b')).resourceVersion > savedRv);
    assert.equal(second.list({ group: '', version: 'v1', resource: 'namespaces' }, {}).items.length, 4, 'default namespaces are not recreated');
  } finally {
    await second.close();
    await first.close();
  }
}));

test('versions handed out but not yet saved are never reused: after a crash the next start carries on past them, and resumes from them get 410', withDir(async (dir) => {
  const first = new SimCluster({ clock: new FakeClock(), stateDir: dir, persistence: QUIET });
  first.create(CM, 'default', configMap('saved'));
  await first.whenDurable();
  const unsaved = first.create(CM, 'default', configMap('unsaved')).resourceVersion;
  const copy = crashCopy(dir);
  await first.close();

  const second = new SimCluster({ clock: new FakeClock(), stateDir: copy, persistence: QUIET });
  try {
    assert.throws(() => second.get(CM, 'default', 'unsaved'), /not found/, 'never acknowledged, so it may be lost');
    assert.ok(second.resourceVersion > unsaved, `head ${second.resourceVersion} must pass the lost version ${unsaved}`);
    const events: string[] = [];
    second.watch(CM, { resourceVersion: String(unsaved) }, { event: (e) => events.push(e.type), close: () => {} });
    for (let i = 0; i < 5; i++) await Promise.resolve();
    assert.deepEqual(events, ['ERROR'], 'a client that saw the lost version must relist, not resume');
    assert.ok(second.create(CM, 'default', configMap('next')).resourceVersion > unsaved);
  } finally {
    await second.close();
    rmSync(copy, { recursive: true, force: true });
  }
}));

test('after a clean stop the next start carries on at the same resourceVersion, and older resumes get 410', withDir(async (dir) => {
  const first = new SimCluster({ clock: new FakeClock(), stateDir: dir });
  first.create(CM, 'default', configMap('a'));
  const rv = first.resourceVersion;
  await first.close();
  // Folded into the snapshot on stop: what is left is the empty journal the snapshot names.
  const journals = readdirSync(dir).filter((f) => f.startsWith('journal-'));
  assert.equal(journals.length, 1);
  assert.equal(statSync(join(dir, journals[0]!)).size, 0, 'the journal is folded into the snapshot on stop');
  const second = new SimCluster({ clock: new FakeClock(), stateDir: dir });
  try {
    assert.equal(second.resourceVersion, rv);
    const events: string[] = [];
    second.watch(CM, { resourceVersion: '1' }, { event: (e) => events.push(e.type), close: () => {} });
    for (let i = 0; i < 5; i++) await Promise.resolve();
    assert.deepEqual(events, ['ERROR']);
  } finally {
    await second.close();
  }
}));

test('a torn last journal line (a crash mid-append) is dropped; the records before it are kept', withDir(async (dir) => {
  const first = new SimCluster({ clock: new FakeClock(), stateDir: dir, persistence: QUIET });
  first.create(CM, 'default', configMap('kept'));
  await first.whenDurable();
  const copy = crashCopy(dir);
  await first.close();
  const journal = readdirSync(copy).find((f) => f.startsWith('journal-'))!;
  writeFileSync(join(copy, journal), readFileSync(join(copy, journal), 'utf8') + '0badc0de {"rv":99,"g":"","r":"configm', { flag: 'w' });
  const second = new SimCluster({ clock: new FakeClock(), stateDir: copy, persistence: QUIET });
  try {
    assert.equal(second.get(CM, 'default', 'kept').object.metadata.name, 'kept');
  } finally {
    await second.close();
    rmSync(copy, { recursive: true, force: true });
  }
}));

test('damaged state files stop the start with one line naming the file and what is wrong', withDir((dir) => {
  const good = putLine(5, '', 'namespaces', 'default', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', resourceVersion: '5' } }));
  const cases: [string, () => void, RegExp][] = [
    ['garbage', () => writeFileSync(join(dir, 'state.json'), 'not json at all'), /state\.json: not valid JSON/],
    ['truncated', () => writeFileSync(join(dir, 'state.json'), '{"version":1,"resourceVersion":7,"objects":[{"group":"","reso'), /state\.json: not valid JSON, truncated or damaged/],
    ['empty', () => writeFileSync(join(dir, 'state.json'), ''), /state\.json: empty/],
    ['wrong shape', () => writeFileSync(join(dir, 'state.json'), '{"hello":1}'), /state\.json: not a Controller Lab state file/],
    ['a directory', () => mkdirSync(join(dir, 'state.json')), /state\.json: is a directory/],
    ['damage before good records', () => {
      writeFileSync(join(dir, 'state.json'), '{"version":1,"resourceVersion":3,"objects":[]}');
      writeFileSync(join(dir, 'journal-1.log'), `deadbeef {"rv":4}\n${good}`);
    }, /journal-1\.log: damaged at byte 0 \(checksum mismatch, 18 bytes\): resourceVersion 4 would be lost; to start without it: controller-lab sim --state-dir .* --accept-state-loss$/],
    ['a bad reservation', () => writeFileSync(join(dir, 'rv-reservation'), 'lots'), /rv-reservation: not a resourceVersion/],
  ];
  for (const [label, damage, expected] of cases) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    damage();
    assert.throws(() => new SimCluster({ clock: new FakeClock(), stateDir: dir }), (err: Error) => {
      assert.equal(err.name, 'StateFileError', label);
      assert.match(err.message, expected, label);
      assert.ok(err.message.includes(dir), `${label}: names the file`);
      assert.ok(!err.message.includes('\n'), `${label}: one line`);
      return true;
    }, label);
  }
}));

test('every file holding Secret data is 0600, including a state.json that was 0644', withDir(async (dir) => {
  writeFileSync(join(dir, 'state.json'), '{"version":1,"resourceVersion":3,"objects":[]}', { mode: 0o644 });
  // The system namespaces are made at every start, as kube-apiserver makes them.
  const cluster = new SimCluster({ clock: new FakeClock(), stateDir: dir, persistence: { quietMs: 10 } });
  cluster.create(SECRETS, 'default', { metadata: { name: 's' }, stringData: { password: 'hunter2' } });
  await cluster.whenDurable();
  const modes = () => readdirSync(dir).map((f) => [f, (statSync(join(dir, f)).mode & 0o777).toString(8)]);
  assert.ok(readdirSync(dir).some((f) => f.startsWith('journal-')), 'a journal is written');
  for (const [f, mode] of modes()) assert.equal(mode, '600', `${f} is ${mode}`);
  await cluster.close();
  assert.ok(readFileSync(join(dir, 'state.json'), 'utf8').includes('"s"'), 'the Secret is in the snapshot');
  for (const [f, mode] of modes()) assert.equal(mode, '600', `${f} is ${mode} after stop`);
}));
