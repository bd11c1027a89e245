// What a user sees when the state dir goes bad under a running `controller-lab sim` (disk full, the
// snapshot path taken by a directory) or is damaged before a start, and who may read its files.
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killLeftoverSims, runSimToExit, startCrashableSim, type CrashableSim } from './simCrash.ts';
import { rawRequest } from './simProcess.ts';

const dirs: string[] = [];
after(async () => {
  killLeftoverSims();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function newDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'sim-faults-'));
  dirs.push(d);
  return d;
}

function create(sim: CrashableSim, name: string, size = 0) {
  const body = JSON.stringify({ metadata: { name }, data: { v: name, pad: 'x'.repeat(size) } });
  return rawRequest(sim.endpoint, 'POST', '/api/v1/namespaces/default/configmaps', { body, headers: { 'Content-Type': 'application/json' } });
}

async function names(sim: CrashableSim): Promise<Set<string>> {
  const r = await rawRequest(sim.endpoint, 'GET', '/api/v1/namespaces/default/configmaps');
  assert.equal(r.status, 200, r.body);
  return new Set((JSON.parse(r.body) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name));
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Puts a directory where the sim writes a file, again if the sim's own snapshot lands in between. */
async function takeWithDirectory(path: string): Promise<void> {
  for (;;) {
    await rm(path, { force: true });
    try {
      await mkdir(path);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

it('a full disk fails writes with a Status while the sim keeps serving and /readyz says why; nothing answered is lost', { timeout: 90_000 }, async () => {
  const dir = await newDir();
  const port = await freePort();
  // 512 blocks of 512 bytes: the bootstrap objects (RBAC policy…) take some 110 KiB of it, then the
  // state fills up after some 60 writes of 2 KiB (EFBIG, as ENOSPC would).
  let sim = await startCrashableSim(dir, port, { fileSizeLimitBlocks: 512 });
  const acknowledged: string[] = [];
  let failure: { status: number; body: string } | undefined;
  for (let i = 0; i < 400 && !failure; i++) {
    const r = await create(sim, `cm-${i}`, 2048);
    if (r.status === 201) acknowledged.push(`cm-${i}`);
    else failure = r;
  }
  assert.ok(failure, 'writes kept succeeding past the file size limit');
  assert.ok(acknowledged.length > 10, `only ${acknowledged.length} writes before the failure`);
  assert.ok(failure.status === 500 || failure.status === 503, `${failure.status} ${failure.body}`);
  const status = JSON.parse(failure.body) as { kind: string; message: string };
  assert.equal(status.kind, 'Status');
  assert.match(status.message, /File too large|EFBIG/);

  const refused = await create(sim, 'while-failing');
  assert.equal(refused.status, 503, refused.body);
  assert.equal(refused.headers['retry-after'], '1');
  const ready = await rawRequest(sim.endpoint, 'GET', '/readyz');
  assert.equal(ready.status, 500);
  assert.match(ready.body, /\[-\]persistence failed: cannot write the journal in .*EFBIG/);
  assert.equal((await rawRequest(sim.endpoint, 'GET', '/healthz')).status, 200, 'liveness is the server, not the disk');
  const state = await rawRequest(sim.endpoint, 'GET', '/controller-lab/admin/state');
  assert.match((JSON.parse(state.body) as { persistenceProblem?: string }).persistenceProblem ?? '', /EFBIG/, '`controller-lab sim state` says why');
  assert.equal((await rawRequest(sim.endpoint, 'GET', '/livez')).status, 200);
  assert.ok((await names(sim)).has(acknowledged[0]!), 'reads keep working');
  assert.match(sim.output(), /cannot write the journal in .*EFBIG.*writes are refused \(503\)/);
  assert.equal(sim.process.exitCode, null, 'still running');

  await sim.kill9();
  sim = await startCrashableSim(dir, port);
  try {
    const present = await names(sim);
    assert.deepEqual(acknowledged.filter((n) => !present.has(n)), [], 'answered writes lost');
    assert.equal((await rawRequest(sim.endpoint, 'GET', '/readyz')).status, 200);
  } finally {
    assert.equal(await sim.stop(), 0, sim.output());
  }
});

it('a snapshot path taken by a directory makes /readyz say so while writes stay journaled, and no write is lost', { timeout: 90_000 }, async () => {
  const dir = await newDir();
  const port = await freePort();
  let sim = await startCrashableSim(dir, port);
  await takeWithDirectory(join(dir, 'state.json'));
  const written: string[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await create(sim, `cm-${i}`);
    assert.equal(r.status, 201, r.body);
    written.push(`cm-${i}`);
  }
  // The journal is folded into state.json once writes go quiet: that now fails, visibly.
  await until(async () => (await rawRequest(sim.endpoint, 'GET', '/readyz')).status === 500, '/readyz to report the snapshot failure');
  assert.match((await rawRequest(sim.endpoint, 'GET', '/readyz')).body, /persistence failed: cannot write .*state\.json/);
  assert.match(sim.output(), /cannot write .*state\.json: .*writes are still journaled/);
  assert.equal((await create(sim, 'after')).status, 201);
  written.push('after');
  await sim.kill9();

  // Without its snapshot the journal is not the whole state (the namespaces were in state.json):
  // that stops the start, until the loss is accepted.
  await rm(join(dir, 'state.json'), { recursive: true });
  const refused = await runSimToExit(['--port', String(port), '--state-dir', dir]);
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr.trim(), /^controller-lab sim: .*state\.json: missing while journal-\d+\.log.* are there: every object it held \(the namespaces among them\) would be lost; to start without it: controller-lab sim --state-dir .* --accept-state-loss$/);
  sim = await startCrashableSim(dir, port, { args: ['--accept-state-loss'] });
  try {
    const present = await names(sim);
    assert.deepEqual(written.filter((n) => !present.has(n)), []);
    assert.match(sim.output(), /state loss accepted: .*state\.json: missing/);
    assert.equal((await create(sim, 'in-default-again')).status, 201, 'the default namespace is there');
  } finally {
    assert.equal(await sim.stop(), 0, sim.output());
  }
});

it('acknowledged writes in a damaged journal, a damaged CA or a damaged token stop the start with one line naming the file, the offset and the loss', { timeout: 90_000 }, async () => {
  const dir = await newDir();
  const port = await freePort();
  let sim = await startCrashableSim(dir, port);
  for (let i = 0; i < 5; i++) assert.equal((await create(sim, `cm-${i}`)).status, 201);
  await sim.kill9();
  const journal = join(dir, (await readdir(dir)).filter((f) => f.startsWith('journal-')).sort().at(-1)!);
  const text = await readFile(journal);
  // The last two lines zeroed, their newlines too, as a disk that lost their blocks leaves them.
  const cut = text.lastIndexOf(0x0a, text.lastIndexOf(0x0a, text.length - 2) - 1) + 1;
  await writeFile(journal, Buffer.concat([text.subarray(0, cut), Buffer.alloc(text.length - cut)]));
  const refused = await runSimToExit(['--port', String(port), '--state-dir', dir]);
  assert.equal(refused.code, 1, refused.stderr);
  const line = refused.stderr.trim();
  assert.ok(!line.includes('\n'), line);
  assert.match(line, new RegExp(`^controller-lab sim: ${journal}: damaged at byte ${cut} \\(zeroed bytes, \\d+ bytes\\): every write after resourceVersion \\d+ would be lost; to start without it: controller-lab sim --state-dir ${dir} --accept-state-loss$`));
  sim = await startCrashableSim(dir, port, { args: ['--accept-state-loss'] });
  const present = await names(sim);
  assert.ok(present.has('cm-2') && !present.has('cm-4'), [...present].join(' '));
  assert.equal(await sim.stop(), 0, sim.output());

  await writeFile(join(dir, 'ca.key'), 'garbage\n');
  const badKey = await runSimToExit(['--port', String(port), '--state-dir', dir]);
  assert.equal(badKey.code, 1, badKey.stderr);
  assert.match(badKey.stderr.trim(), new RegExp(`^controller-lab sim: ${join(dir, 'ca.key')}: not a PEM private key, damaged: the kubeconfigs written before would no longer trust the sim; to start without it: .*--accept-state-loss$`));
  sim = await startCrashableSim(dir, port, { args: ['--accept-state-loss'] });
  assert.match(sim.output(), new RegExp(`^controller-lab sim: state loss accepted: ${join(dir, 'ca.key')}: not a PEM private key, damaged: the kubeconfigs written before would no longer trust the sim$`, 'm'));
  assert.equal(await sim.stop(), 0, sim.output());

  await writeFile(join(dir, 'token'), 'not a token!\n');
  const badToken = await runSimToExit(['--port', String(port), '--state-dir', dir]);
  assert.equal(badToken.code, 1, badToken.stderr);
  assert.match(badToken.stderr.trim(), new RegExp(`^controller-lab sim: ${join(dir, 'token')}: not a bearer token, damaged: the kubeconfigs written before would no longer be let in; to start without it: .*--accept-state-loss$`));
  sim = await startCrashableSim(dir, port, { args: ['--accept-state-loss'] });
  assert.match(sim.output(), new RegExp(`^controller-lab sim: state loss accepted: ${join(dir, 'token')}: not a bearer token, damaged: the kubeconfigs written before would no longer be let in$`, 'm'));
  assert.equal(await sim.stop(), 0, sim.output());
});

it('a CA deleted from a state dir that kept its token stops the start naming the missing files, unless the loss is accepted', { timeout: 60_000 }, async () => {
  const dir = await newDir();
  const port = await freePort();
  let sim = await startCrashableSim(dir, port);
  assert.equal(await sim.stop(), 0, sim.output());
  await rm(join(dir, 'ca.crt'));
  await rm(join(dir, 'ca.key'));
  const problem = `${join(dir, 'ca.crt')} and ${join(dir, 'ca.key')}: missing while ${join(dir, 'token')} is there: the kubeconfigs written before would no longer trust the sim`;
  const refused = await runSimToExit(['--port', String(port), '--state-dir', dir]);
  assert.equal(refused.code, 1, refused.stderr);
  assert.equal(refused.stderr.trim(), `controller-lab sim: ${problem}; to start without it: controller-lab sim --state-dir ${dir} --accept-state-loss`);
  sim = await startCrashableSim(dir, port, { args: ['--accept-state-loss'] });
  assert.ok(sim.output().split('\n').includes(`controller-lab sim: state loss accepted: ${problem}`), sim.output());
  assert.equal(await sim.stop(), 0, sim.output());
  // The new CA is kept: the next start needs nothing accepted.
  sim = await startCrashableSim(dir, port);
  assert.doesNotMatch(sim.output(), /state loss/);
  assert.equal(await sim.stop(), 0, sim.output());
});

it('a damaged or unreadable state file stops the start with one line naming it, no stack trace', { timeout: 60_000 }, async () => {
  for (const [label, damage, expected] of [
    ['garbage', (d: string) => writeFile(join(d, 'state.json'), '\u0000\u0001garbage'), /state\.json: not valid JSON, truncated or damaged/],
    ['truncated', (d: string) => writeFile(join(d, 'state.json'), '{"version":1,"resourceVersion":9,"objects":[{"gro'), /state\.json: not valid JSON, truncated or damaged/],
    ['a directory', (d: string) => mkdir(join(d, 'state.json')), /state\.json: is a directory/],
  ] as const) {
    const dir = await newDir();
    await damage(dir);
    const r = await runSimToExit(['--port', '0', '--state-dir', dir]);
    assert.equal(r.code, 1, `${label}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${label}: ${r.stderr}`);
    assert.match(lines[0]!, expected, label);
    assert.ok(lines[0]!.includes(join(dir, 'state.json')), `${label}: names the file`);
  }
});

it('files holding the token or Secret data are 0600, a pre-existing 0644 kubeconfig included; a lower-case "bearer" is accepted', { timeout: 60_000 }, async () => {
  const dir = await newDir();
  const kubeconfigOut = join(dir, 'out', 'kubeconfig');
  await mkdir(join(dir, 'out'));
  await writeFile(kubeconfigOut, 'old content\n', { mode: 0o644 });
  const stateDir = join(dir, 'state');
  const sim = await startCrashableSim(stateDir, 0, { args: ['--kubeconfig-out', kubeconfigOut] });
  try {
    const text = await readFile(kubeconfigOut, 'utf8');
    assert.match(text, /token: /);
    assert.equal((await stat(kubeconfigOut)).mode & 0o777, 0o600);
    const url = /serving on (\S+)/.exec(sim.output())![1]!;
    const token = /token: (\S+)/.exec(text)![1]!;
    const endpoint = { server: url, token, caPem: sim.endpoint.caPem };
    const secret = JSON.stringify({ metadata: { name: 's' }, stringData: { password: 'hunter2' } });
    const created = await rawRequest(endpoint, 'POST', '/api/v1/namespaces/default/secrets', { body: secret, token: null, headers: { Authorization: `bearer ${token}`, 'Content-Type': 'application/json' } });
    assert.equal(created.status, 201, created.body);
    assert.equal(await sim.stop(), 0);
    for (const f of await readdir(stateDir)) {
      assert.equal((await stat(join(stateDir, f))).mode & 0o777, 0o600, `${f}`);
    }
    assert.ok((await readFile(join(stateDir, 'state.json'), 'utf8')).includes('"name":"s"'));
  } finally {
    await sim.stop();
  }
});
