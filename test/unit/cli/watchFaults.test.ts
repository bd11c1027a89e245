import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from './support/runCli.ts';
import { configMap, sendList, startScriptedCluster, watchLine } from './support/scriptedCluster.ts';

// `controller-lab watch` against a server that misbehaves: it warns, recovers, and ends with the
// cache equal to the server's objects; it never crashes.

type T = { after(fn: () => unknown): void };

async function cluster(t: T, options: Parameters<typeof startScriptedCluster>[0]) {
  const c = await startScriptedCluster(options);
  t.after(() => c.close());
  return c;
}

function dumped(file: string): string[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { name: string; resourceVersion: string }[]).map((r) => `${r.name}@${r.resourceVersion}`);
}

test('429 with Retry-After: the CLI says it waits as asked, waits, and carries on', { timeout: 60_000 }, async (t) => {
  const listTimes: number[] = [];
  const c = await cluster(t, {
    list: (res, attempt) => {
      listTimes.push(performance.now());
      if (attempt > 0) return sendList(res, [configMap('a', '5')], '10');
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '2' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 429, reason: 'TooManyRequests', message: 'the server has received too many requests and has asked us to try again later' }));
    },
  });
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '-o', 'none', '--exit-when-seen', 'default/a']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^controller-lab watch: warning: the server answered 429 TooManyRequests: the server has received too many requests .*\(retrying GET \/api\/v1\/namespaces\/default\/configmaps in 2s as its Retry-After asks, 1\/10\)$/m);
  assert.ok(listTimes[1]! - listTimes[0]! >= 1990, `retried after ${listTimes[1]! - listTimes[0]!} ms; the server asked for 2 s`);
});

test('an event over --max-event-size: a warning, the watch resumes from the last good RV, the dump equals the server', { timeout: 60_000 }, async (t) => {
  const c = await cluster(t, {
    items: [configMap('a', '5')],
    watch: (res, attempt) => {
      if (attempt === 0) {
        res.write(watchLine('ADDED', 'b', '11'));
        res.write(`{"type":"ADDED","object":{"metadata":{"name":"huge","namespace":"default","resourceVersion":"12"},"data":{"k":"${'x'.repeat(200 * 1024)}"}}}\n`);
        return;
      }
      res.write(watchLine('ADDED', 'huge', '12') + watchLine('ADDED', 'sentinel', '13'));
    },
  });
  const dump = path.join(c.dir, 'cache.json');
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '-o', 'none', '--max-event-size', '64Ki', '--exit-when-seen', 'default/sentinel', '--dump-cache', dump]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^controller-lab watch: warning: the server sent a watch event longer than the 64 KiB limit: the watch was closed \(retrying\)$/m);
  assert.doesNotMatch(r.stderr, /RangeError|\n\s+at /);
  assert.match(r.stderr, /^lists=1 watches=2 relists=0 /m);
  assert.ok(c.api.requests.some((q) => q.path.includes('watch=true') && q.path.includes('resourceVersion=11&')), 'resumed from RV 11');
  assert.deepEqual(dumped(dump), ['a@5', 'b@11', 'huge@12', 'sentinel@13']);
});

test('a silent watch is reconnected after --watch-idle-timeout; a stalled list is retried after --stall-timeout', { timeout: 60_000 }, async (t) => {
  const c = await cluster(t, {
    list: (res, attempt) => {
      if (attempt > 0) return sendList(res, [configMap('a', '5')], '10');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"10"},"items":[');
    },
    watch: (res, attempt) => {
      if (attempt > 0) res.write(watchLine('ADDED', 'sentinel', '11'));
    },
  });
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '-o', 'none', '--stall-timeout', '300ms', '--watch-idle-timeout', '500ms', '--exit-when-seen', 'default/sentinel']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^controller-lab watch: warning: http:\/\/127\.0\.0\.1:\d+ sent nothing for 300 ms in the middle of the answer to GET \/api\/v1\/namespaces\/default\/configmaps: aborted \(retrying\)$/m);
  assert.match(r.stderr, /^controller-lab watch: warning: the watch received nothing, not even a bookmark, for 0\.\d s, while the server had changes to send \(a dead connection\): resumed from resourceVersion 10 \(retrying\)$/m);
  assert.match(r.stderr, /^lists=1 watches=2 relists=0 410s=0 events=1 /m);
});

test('bad --stall-timeout, --watch-idle-timeout and --max-event-size values are usage errors, and so is a timeout past a day (Node would fire it at once)', async () => {
  const results = await Promise.all([
    runCli(['watch', 'cm', '--stall-timeout', 'soon']),
    runCli(['watch', 'cm', '--watch-idle-timeout=-1s']),
    runCli(['watch', 'cm', '--max-event-size', '0']),
    runCli(['watch', 'cm', '--stall-timeout', '99999999h']),
  ]);
  assert.deepEqual(results.map((r) => r.code), [2, 2, 2, 2]);
  assert.match(results[3]!.stderr, /--stall-timeout must be at most 24h \(got "99999999h"\)/);
  assert.match(results[0]!.stderr, /--stall-timeout must be a duration such as 500ms, 30s or 2m \(got "soon"\)/);
  assert.match(results[1]!.stderr, /--watch-idle-timeout must be a duration/);
  assert.match(results[2]!.stderr, /--max-event-size must be a size such as 16Mi or 65536 \(got "0"\)/);
});

test('a 600 MiB event line with the default limit: the CLI hangs up at 16 MiB, resumes, and exits normally', { timeout: 120_000 }, async (t) => {
  let sent = 0;
  const c = await cluster(t, {
    items: [configMap('a', '5')],
    watch: (res, attempt) => {
      if (attempt > 0) return void res.write(watchLine('ADDED', 'sentinel', '13'));
      // Streamed from one reused 1 MiB piece: the test itself never holds the line.
      res.write('{"type":"ADDED","object":{"metadata":{"name":"huge","namespace":"default","resourceVersion":"12"},"data":{"k":"');
      const piece = 'x'.repeat(1 << 20);
      const pump = (): void => {
        if (res.destroyed || sent >= 600 << 20) return;
        sent += piece.length;
        res.write(piece, () => setImmediate(pump));
      };
      pump();
    },
  });
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '-o', 'none', '--exit-when-seen', 'default/sentinel']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /warning: the server sent a watch event longer than the 16 MiB limit: the watch was closed \(retrying\)/);
  assert.match(r.stderr, /^lists=1 watches=2 relists=0 410s=0 events=1 .* cached=2$/m);
  assert.ok(sent < 64 << 20, `the client read ${sent >> 20} MiB of one line before hanging up`);
});
