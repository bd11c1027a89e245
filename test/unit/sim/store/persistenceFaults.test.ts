// A disk that fails under the sim (ENOSPC on the journal, a snapshot that cannot be written), through
// an injected file layer: writes fail with a Status, nothing answered is lost, recovery is automatic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../../../src/shared/apiError.ts';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { SimCluster } from '../../../../src/sim/simCluster.ts';
import { nodePersistenceFs, type PersistenceFs } from '../../../../src/sim/store/persistenceFs.ts';
import { CM, configMap } from './helpers.ts';

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
}

/** The real file layer, with journal or snapshot writes failing while `full.journal`/`full.snapshot` is set. */
function flakyFs(full: { journal: boolean; snapshot: boolean }, onSnapshotChunk?: () => void): PersistenceFs {
  return {
    ...nodePersistenceFs,
    async create(path) {
      const file = await nodePersistenceFs.create(path);
      const isSnapshot = path.endsWith('state.json.tmp');
      return {
        ...file,
        async write(data, position) {
          if (isSnapshot ? full.snapshot : full.journal) throw enospc();
          if (isSnapshot) onSnapshotChunk?.();
          await file.write(data, position);
        },
      };
    },
  };
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return err;
  }
  assert.fail('expected a rejection');
}

test('a journal that cannot be written: waiting writes get 500, new ones 503, reads go on, and it recovers with nothing answered lost', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-faults-'));
  const full = { journal: false, snapshot: false };
  const logged: string[] = [];
  const cluster = new SimCluster({ clock: new FakeClock(), stateDir: dir, persistence: { fs: flakyFs(full), retryMs: 20, quietMs: 60_000, log: (l) => logged.push(l) } });
  try {
    cluster.create(CM, 'default', configMap('answered'));
    await cluster.whenDurable();

    full.journal = true;
    cluster.create(CM, 'default', configMap('unanswered'));
    const failed = await rejection(cluster.whenDurable());
    assert.equal(failed.code, 500);
    assert.match(failed.message, /could not be saved .*ENOSPC/);
    assert.match(cluster.persistenceProblem() ?? '', /cannot write the journal in .*ENOSPC/);
    assert.ok(logged.some((l) => /writes are refused \(503\)/.test(l)), logged.join('\n'));

    assert.throws(() => cluster.create(CM, 'default', configMap('refused')), (err: ApiError) => err.code === 503 && err.status?.details?.retryAfterSeconds === 1);
    assert.equal(cluster.list(CM, { namespace: 'default' }).items.length, 2, 'reads keep working');

    full.journal = false;
    for (let i = 0; i < 100 && cluster.persistenceProblem(); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(cluster.persistenceProblem(), undefined, 'recovered by itself');
    assert.ok(logged.some((l) => /written again; writes are accepted/.test(l)));
    cluster.create(CM, 'default', configMap('after'));
    await cluster.whenDurable();

    const copy = `${dir}-crash`;
    cpSync(dir, copy, { recursive: true });
    const restarted = new SimCluster({ clock: new FakeClock(), stateDir: copy, persistence: { quietMs: 60_000 } });
    const names = restarted.list(CM, { namespace: 'default' }).items.map((i) => i.object.metadata.name);
    assert.deepEqual(names, ['after', 'answered', 'unanswered'], 'the write answered 500 was kept queued and saved once the disk recovered');
    await restarted.close();
    rmSync(copy, { recursive: true, force: true });
  } finally {
    await cluster.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a snapshot that cannot be written is reported while writes stay durable, and retried', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-faults-'));
  const full = { journal: false, snapshot: true };
  const cluster = new SimCluster({ clock: new FakeClock(), stateDir: dir, persistence: { fs: flakyFs(full), retryMs: 10, quietMs: 10, log: () => {} } });
  try {
    cluster.create(CM, 'default', configMap('a'));
    await cluster.whenDurable();
    for (let i = 0; i < 100 && !cluster.persistenceProblem(); i++) await new Promise((r) => setTimeout(r, 10));
    assert.match(cluster.persistenceProblem() ?? '', /cannot write .*state\.json: ENOSPC/);
    cluster.create(CM, 'default', configMap('b'));
    await cluster.whenDurable();
    full.snapshot = false;
    for (let i = 0; i < 200 && cluster.persistenceProblem(); i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(cluster.persistenceProblem(), undefined);
  } finally {
    await cluster.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a snapshot of 20 000 objects is written in chunks, letting other work run between them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-faults-'));
  let chunks = 0;
  let ranBetween = 0;
  let compacting = false;
  const cluster = new SimCluster({ clock: new FakeClock(), stateDir: dir, persistence: { fs: flakyFs({ journal: false, snapshot: false }, () => void chunks++), quietMs: 60_000 } });
  try {
    for (let i = 0; i < 20_000; i++) cluster.create(CM, 'default', configMap(`cm-${i}`, undefined, { k: 'x'.repeat(100) }));
    await cluster.whenDurable();
    // Other work (here a setImmediate loop, in the server: requests and watches) during the snapshot.
    compacting = true;
    const other = (): void => {
      if (!compacting) return;
      ranBetween++;
      setImmediate(other);
    };
    setImmediate(other);
    await cluster.close(); // folds the journal into a last snapshot
    compacting = false;
    assert.ok(chunks >= 20, `${chunks} chunks`);
    assert.ok(ranBetween >= 20, `other work ran only ${ranBetween} times during the snapshot`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('while serving, resourceVersions are reserved through the journal ahead of need, never by a synchronous write', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-faults-'));
  let synchronousWrites = 0;
  const fs: PersistenceFs = { ...nodePersistenceFs, replaceSync: (path, content) => (synchronousWrites++, nodePersistenceFs.replaceSync(path, content)) };
  const cluster = new SimCluster({ clock: new FakeClock(), stateDir: dir, persistence: { fs, reserveBlock: 1000, quietMs: 60_000 } });
  try {
    const atStart = synchronousWrites;
    for (let batch = 0; batch < 50; batch++) {
      for (let i = 0; i < 100; i++) cluster.create(CM, 'default', configMap(`cm-${batch}-${i}`));
      await cluster.whenDurable();
    }
    assert.equal(synchronousWrites - atStart, 0, 'a fsync on the event loop per block');
    const copy = `${dir}-crash`;
    cpSync(dir, copy, { recursive: true });
    const rv = cluster.resourceVersion;
    const restarted = new SimCluster({ clock: new FakeClock(), stateDir: copy, persistence: { quietMs: 60_000 } });
    assert.ok(restarted.resourceVersion >= rv);
    await restarted.close();
    rmSync(copy, { recursive: true, force: true });
  } finally {
    await cluster.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
