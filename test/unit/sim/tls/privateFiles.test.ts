import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreatePki } from '../../../../src/sim/tls/certificates.ts';
import { writeKubeconfig } from '../../../../src/sim/tls/kubeconfig.ts';
import { loadOrCreateToken } from '../../../../src/sim/tls/tokenFile.ts';

async function mode(path: string): Promise<string> {
  return ((await stat(path)).mode & 0o777).toString(8);
}

test('a kubeconfig written over a world-readable file ends up 0600 with the new token in it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'private-files-'));
  try {
    const path = join(dir, 'kubeconfig');
    await writeFile(path, 'old: content\n', { mode: 0o644 });
    await writeKubeconfig(path, 'token: new\n');
    assert.equal(await mode(path), '600');
    assert.equal(await readFile(path, 'utf8'), 'token: new\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the token and the CA key kept in a state dir are 0600, and the token is the same on the next start', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'private-files-'));
  try {
    await writeFile(join(dir, 'token'), 'x'.repeat(43), { mode: 0o644 });
    assert.equal(await loadOrCreateToken(dir), 'x'.repeat(43));
    assert.equal(await mode(join(dir, 'token')), '600');
    await rm(join(dir, 'token'));
    const made = await loadOrCreateToken(dir);
    assert.equal(await loadOrCreateToken(dir), made);
    await writeFile(join(dir, 'ca.key'), 'stale', { mode: 0o644 });
    await loadOrCreatePki(dir);
    assert.equal(await mode(join(dir, 'ca.key')), '600');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
