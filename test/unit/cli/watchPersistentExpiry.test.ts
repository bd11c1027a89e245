import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCli } from './support/runCli.ts';
import { configMap, sendList, startScriptedCluster } from './support/scriptedCluster.ts';

// `controller-lab watch` against servers that would keep it busy for nothing: one that expires
// every watch (410) and one that asks for an absurd Retry-After. It backs off, says so once, and
// never waits longer than client-go's reflector would.

const expired = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version: 10 (11)' };

async function runFor(ms: number, args: string[]) {
  const cli = startCli(args);
  await new Promise((r) => setTimeout(r, ms));
  cli.child.kill('SIGINT');
  return cli.done;
}

test('every watch answered ERROR 410: a few LIST+WATCH pairs, not thousands, and one warning saying why', { timeout: 60_000 }, async (t) => {
  const c = await startScriptedCluster({
    items: [configMap('a', '10')],
    watch: (res) => void res.end(`${JSON.stringify({ type: 'ERROR', object: expired })}\n`),
  });
  t.after(() => c.close());
  const r = await runFor(7_000, ['watch', 'cm', '--kubeconfig', c.kubeconfig, '-o', 'none']);
  assert.equal(r.code, 0, r.stderr);
  // As client-go: relisted after 0.8–1.6 s the first time too, then 1.6–3.2 s, then 3.2–6.4 s more.
  assert.ok(c.lists <= 4 && c.watches <= 4, `${c.lists} lists and ${c.watches} watches in 7 s`);
  assert.ok(c.lists >= 3, `${c.lists} lists in 7 s: it should keep trying`);
  const warnings = r.stderr.split('\n').filter((l) => l.includes('warning:'));
  assert.equal(warnings.length, 1, r.stderr);
  assert.match(warnings[0]!, /^controller-lab watch: warning: the server keeps ending watches with 410 Gone \(3 in a row within \d+\.\d s\): relisting with backoff, up to 30 s apart \(retrying\)$/);
});

test('Retry-After: 999999 is waited out for 30 s at most, as client-go\'s reflector caps its waits', { timeout: 60_000 }, async (t) => {
  const c = await startScriptedCluster({
    list: (res, attempt) => {
      if (attempt > 0) return sendList(res, [configMap('a', '5')], '10');
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '999999' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 429, reason: 'TooManyRequests', message: 'slow down' }));
    },
  });
  t.after(() => c.close());
  const r = await runFor(1_500, ['watch', 'cm', '--kubeconfig', c.kubeconfig, '-o', 'none']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^controller-lab watch: warning: the server answered 429 TooManyRequests: slow down \(retrying GET \/api\/v1\/namespaces\/default\/configmaps in 30s, the longest wait we honour; its Retry-After asked for 999999s, 1\/10\)$/m);
});
