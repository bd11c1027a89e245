// What a write keeps once it is answered: a refused or dry-run write nothing, and an accepted one
// its object (the decodings of managedFields kept for the next write are bounded by their bytes).
// Heap is measured after full collections in this process, around writes sent over HTTP.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const suite = suiteServer();
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const MB = 1024 * 1024;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** A ConfigMap with `keys` labels or data keys (short values: its data stays under 1 MiB). */
function configMap(name: string, keys: number, where: 'labels' | 'data'): string {
  const map: Record<string, string> = {};
  for (let k = 0; k < keys; k++) map[`key-${k}`] = where === 'labels' ? `v${k}` : '';
  const metadata = where === 'labels' ? { name, labels: map } : { name };
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, ...(where === 'data' ? { data: map } : {}) });
}

/** Heap still held after `send` ran `times` times. */
async function heapKeptBy(times: number, send: (i: number) => Promise<void>): Promise<number> {
  await send(-1); // code paths compiled, lazily built tables filled
  const before = heapUsed();
  for (let i = 0; i < times; i++) await send(i);
  return heapUsed() - before;
}

describe('what a write keeps', () => {
  it('keeps nothing of creates refused as too large (100,000 labels, 100,000 data keys)', async () => {
    for (const where of ['labels', 'data'] as const) {
      const kept = await heapKeptBy(4, async (i) => {
        const r = await call(suite.server, 'POST', CONFIGMAPS, { body: configMap(`big-${where}-${i}`, 100_000, where) });
        assert.equal(r.status, 500, r.body);
        assert.equal(r.json().message, 'etcdserver: request is too large');
      });
      // Each one kept 38 MB of decoded managedFields before.
      assert.ok(kept < 12 * MB, `${where}: ${(kept / MB).toFixed(1)} MB kept after 4 refused creates`);
    }
  });

  it('keeps nothing of dry runs', async () => {
    const kept = await heapKeptBy(4, async (i) => {
      const r = await call(suite.server, 'POST', `${CONFIGMAPS}?dryRun=All`, { body: configMap(`dry-${i}`, 100_000, 'labels') });
      assert.equal(r.status, 201, r.body.slice(0, 200));
    });
    assert.ok(kept < 12 * MB, `${(kept / MB).toFixed(1)} MB kept after 4 dry runs`);
  });

  it('keeps accepted objects and a bounded cache of their decoded managedFields', async () => {
    let json = 0;
    const kept = await heapKeptBy(20, async (i) => {
      const body = configMap(`kept-${i}`, 20_000, 'data');
      if (i >= 0) json += body.length;
      const r = await call(suite.server, 'POST', CONFIGMAPS, { body });
      assert.equal(r.status, 201, r.body.slice(0, 200));
    });
    // The objects take ~3 MB each (the stored object, its managedFields and its JSON); the cache of
    // decodings at most 32 MB. Before, every object kept its decoding too (~7 MB): ~200 MB in all.
    assert.ok(kept < 20 * 4 * MB + 32 * MB, `${(kept / MB).toFixed(1)} MB kept for ${(json / MB).toFixed(1)} MB of JSON`);
  });
});
