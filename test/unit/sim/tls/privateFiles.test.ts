import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCa, loadOrCreatePki } from '../../../../src/sim/tls/certificates.ts';
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
    assert.deepEqual(await loadOrCreateToken(dir), { token: 'x'.repeat(43) });
    assert.equal(await mode(join(dir, 'token')), '600');
    await rm(join(dir, 'token'));
    const made = (await loadOrCreateToken(dir)).token;
    assert.deepEqual(await loadOrCreateToken(dir), { token: made });
    const kept = await generateCa();
    await writeFile(join(dir, 'ca.crt'), kept.certPem, { mode: 0o644 });
    await writeFile(join(dir, 'ca.key'), kept.keyPem, { mode: 0o644 });
    assert.equal((await loadOrCreatePki(dir)).ca.keyPem, kept.keyPem);
    assert.equal(await mode(join(dir, 'ca.key')), '600');
    assert.equal(await mode(join(dir, 'ca.crt')), '600');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a damaged or half CA, or a damaged token, stops the start naming the file, unless the loss is accepted', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'private-files-'));
  try {
    const kept = await generateCa();
    await writeFile(join(dir, 'ca.crt'), kept.certPem);
    await writeFile(join(dir, 'ca.key'), 'garbage');
    await assert.rejects(loadOrCreatePki(dir, new Date(), false, '; HINT'), { message: `${join(dir, 'ca.key')}: not a PEM private key, damaged: the kubeconfigs written before would no longer trust the sim; HINT` });
    await writeFile(join(dir, 'ca.key'), (await generateCa()).keyPem);
    await assert.rejects(loadOrCreatePki(dir), { message: `${join(dir, 'ca.key')}: not the key of ${join(dir, 'ca.crt')}: the kubeconfigs written before would no longer trust the sim` });
    await rm(join(dir, 'ca.crt'));
    await assert.rejects(loadOrCreatePki(dir), /ca\.crt: missing while .*ca\.key is there/);
    const fresh = await loadOrCreatePki(dir, new Date(), true);
    assert.match(fresh.loss ?? '', /ca\.crt: missing while .*ca\.key is there: the kubeconfigs written before would no longer trust the sim$/);
    assert.notEqual(fresh.ca.keyPem, kept.keyPem);
    const again = await loadOrCreatePki(dir);
    assert.equal(again.ca.keyPem, fresh.ca.keyPem, 'the new CA is kept');
    assert.equal(again.loss, undefined);

    await writeFile(join(dir, 'token'), 'not a token!\n');
    await assert.rejects(loadOrCreateToken(dir, false, '; HINT'), { message: `${join(dir, 'token')}: not a bearer token, damaged: the kubeconfigs written before would no longer be let in; HINT` });
    const replaced = await loadOrCreateToken(dir, true);
    assert.match(replaced.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(replaced.loss, `${join(dir, 'token')}: not a bearer token, damaged: the kubeconfigs written before would no longer be let in`);
    assert.deepEqual(await loadOrCreateToken(dir), { token: replaced.token }, 'the new token is kept');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a token deleted from a state dir that has its CA (made after the token) stops the start naming it, unless the loss is accepted', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'private-files-'));
  try {
    const token = (await loadOrCreateToken(dir)).token;
    await loadOrCreatePki(dir);
    assert.deepEqual(await loadOrCreateToken(dir), { token });
    await rm(join(dir, 'token'));
    const problem = `${join(dir, 'token')}: missing while ${join(dir, 'ca.crt')} is there: the kubeconfigs written before would no longer be let in`;
    await assert.rejects(loadOrCreateToken(dir, false, '; HINT'), { message: `${problem}; HINT` });
    const replaced = await loadOrCreateToken(dir, true);
    assert.notEqual(replaced.token, token);
    assert.equal(replaced.loss, problem);
    assert.deepEqual(await loadOrCreateToken(dir), { token: replaced.token }, 'the new token is kept');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
