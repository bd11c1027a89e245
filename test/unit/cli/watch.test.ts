import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sendStatus } from '../kube/support/loopbackApi.ts';
import { runCli, startCli } from './support/runCli.ts';
import { configMap, startScriptedCluster, watchLine } from './support/scriptedCluster.ts';

type T = { after(fn: () => unknown): void };

async function cluster(t: T, options: Parameters<typeof startScriptedCluster>[0]) {
  const c = await startScriptedCluster(options);
  t.after(() => c.close());
  return c;
}

test('events output: the list then each change, aligned, with RV and age; --exit-when-seen exits 0', async (t) => {
  const c = await cluster(t, {
    namespace: 'team-a',
    items: [configMap('alpha', '5', 'team-a'), configMap('beta', '6', 'team-a')],
    watch: (res) => res.write(watchLine('MODIFIED', 'alpha', '11', 'team-a') + watchLine('DELETED', 'beta', '12', 'team-a') + watchLine('ADDED', 'gamma', '13', 'team-a')),
  });
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '--exit-when-seen', 'team-a/gamma']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.deepEqual(lines.map((l) => l.split(/\s+/).slice(0, 4)), [
    ['EVENT', 'NAMESPACE', 'NAME', 'RV'],
    ['ADDED', 'team-a', 'alpha', '5'],
    ['ADDED', 'team-a', 'beta', '6'],
    ['MODIFIED', 'team-a', 'alpha', '11'],
    ['DELETED', 'team-a', 'beta', '12'],
    ['ADDED', 'team-a', 'gamma', '13'],
  ]);
  assert.equal(new Set(lines.map((l) => l.search(/\S+\s+\S+$/))).size, 1, `RV column aligned:\n${r.stdout}`);
  assert.match(lines[5] ?? '', /\s(90|91|92)s$/, 'AGE from creationTimestamp');
  // The context's namespace was used, as kubectl does.
  assert.ok(c.api.requests.some((q) => q.path.startsWith('/api/v1/namespaces/team-a/configmaps?')));
  assert.match(r.stderr, /^lists=1 watches=1 relists=0 410s=0 events=3 events\/s=[\d.]+ /m);
  assert.equal(r.stderr.trim().split('\n').length, 1, 'only the summary line on stderr');
});

test('the first lines printed, the header\'s batch, read their AGE from the clock like the rest', async (t) => {
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000 - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const listed = (name: string, rv: string) => ({ ...configMap(name, rv), metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: rv, creationTimestamp: twoDaysAgo } });
  const c = await cluster(t, { items: [listed('alpha', '5'), listed('beta', '6')], watch: (res) => res.write(watchLine('ADDED', 'gamma', '13')) });
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '--exit-when-seen', 'default/gamma']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  // The header opened the batch without reading the clock, and its lines took the time as 0:
  // every object listed read 0s, whatever its age.
  assert.deepEqual(lines.slice(1, 3).map((l) => l.split(/\s+/).filter((w, i) => i === 2 || i === 4)), [['alpha', '2d'], ['beta', '2d']]);
  assert.match(lines[3] ?? '', /\sgamma\s.*\s(90|91|92)s$/);
});

test('jsonl output: list items as ADDED, then each watch event exactly as sent (bookmarks too, managedFields too)', async (t) => {
  const bookmark = { type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '20' } } };
  const managedFields = [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }];
  const listed = configMap('a', '5');
  const added = { type: 'ADDED', object: { ...configMap('b', '21'), metadata: { name: 'b', namespace: 'default', resourceVersion: '21', managedFields } } };
  const c = await cluster(t, {
    items: [{ ...listed, metadata: { ...(listed['metadata'] as object), managedFields } }],
    watch: (res) => res.write(`${JSON.stringify(bookmark)}\n${JSON.stringify(added)}\n`),
  });
  const r = await runCli(['watch', 'configmaps', '--kubeconfig', c.kubeconfig, '-o', 'jsonl', '--exit-when-seen', 'default/b']);
  assert.equal(r.code, 0, r.stderr);
  const events = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name?: string; resourceVersion: string; managedFields?: unknown } } });
  assert.deepEqual(events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion]), [['ADDED', 'a', '5'], ['BOOKMARK', undefined, '20'], ['ADDED', 'b', '21']]);
  assert.deepEqual(events[1], bookmark);
  // The cache leaves managedFields out; what is printed is what the server sent.
  assert.deepEqual(events[0]!.object.metadata.managedFields, managedFields);
  assert.deepEqual(events[2], added);
});

test('a 410 inside the watch makes the informer relist; the summary counts it; --dump-cache writes the sorted cache', async (t) => {
  const c = await cluster(t, {
    items: [configMap('zeta', '5'), configMap('alpha', '6')],
    watch: (res, attempt) => {
      if (attempt === 0) return void res.end(`${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version: 10 (40)' } })}\n`);
      res.write(watchLine('ADDED', 'mid', '41'));
    },
  });
  const dump = path.join(c.dir, 'cache.json');
  const r = await runCli(['watch', 'configmap', '--kubeconfig', c.kubeconfig, '-o', 'none', '--exit-when-seen', 'default/mid', '--dump-cache', dump]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^lists=2 watches=2 relists=1 410s=1 events=1 /m);
  assert.deepEqual(JSON.parse(readFileSync(dump, 'utf8')), [
    { namespace: 'default', name: 'alpha', uid: 'uid-alpha', resourceVersion: '6' },
    { namespace: 'default', name: 'mid', uid: 'uid-mid', resourceVersion: '41' },
    { namespace: 'default', name: 'zeta', uid: 'uid-zeta', resourceVersion: '5' },
  ]);
});

test('a --dump-cache file that cannot be written is one clear line and exit code 2', async (t) => {
  const c = await cluster(t, { items: [configMap('a', '5')] });
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '-o', 'none', '--exit-when-seen', 'default/a', '--dump-cache', path.join(c.dir, 'no', 'such', 'dir.json')]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^controller-lab watch: cannot write --dump-cache .*dir\.json: ENOENT$/m);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});

test('--watch-list starts with a streaming list instead of a plain list', async (t) => {
  const endBookmark = { type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '30', annotations: { 'k8s.io/initial-events-end': 'true' } } } };
  const c = await cluster(t, {
    watch: (res, attempt, url) => {
      if (attempt === 0 && url.searchParams.get('sendInitialEvents') === 'true') return void res.write(watchLine('ADDED', 'streamed', '29') + `${JSON.stringify(endBookmark)}\n`);
      res.write(watchLine('ADDED', 'later', '31'));
    },
  });
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '--watch-list', '--exit-when-seen', 'default/streamed']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /ADDED\s+default\s+streamed\s+29/);
  const cmRequests = c.api.requests.filter((q) => q.path.startsWith('/api/v1/namespaces/default/configmaps'));
  assert.equal(cmRequests.length, 1, 'no plain list');
  assert.match(cmRequests[0]!.path, /watch=true.*resourceVersionMatch=NotOlderThan.*sendInitialEvents=true/);
});

test('SIGINT exits 0 with the summary; -A watches all namespaces', async (t) => {
  let watchArrived: () => void = () => {};
  const watching = new Promise<void>((resolve) => (watchArrived = resolve));
  const c = await cluster(t, { items: [configMap('a', '5', 'ns1'), configMap('b', '6', 'ns2')], watch: () => watchArrived() });
  const cli = startCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '-A']);
  await cli.waitForStdout('ns2');
  // Interrupt once the watch is open too (the server has seen it); the summary may or may not
  // count it yet — the client learns of the acceptance a moment later.
  await watching;
  cli.child.kill('SIGINT');
  const r = await cli.done;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^lists=1 watches=[01] relists=0 410s=0 events=0 /m);
  assert.ok(c.api.requests.some((q) => q.path.startsWith('/api/v1/configmaps?')));
});

test('failures print one line naming the cause and exit 2, without a stack', async (t) => {
  const c = await cluster(t, { items: [] });
  const closed = await startScriptedCluster({});
  const deadUrl = closed.api.url;
  await closed.api.close();
  t.after(() => closed.close());
  const denied = await cluster(t, {});
  denied.api.route('/api', (req, res) => sendStatus(res, 401, 'Unauthorized', 'Unauthorized'));
  const forbidden = await cluster(t, {});
  forbidden.api.route('/api/v1/namespaces/default/configmaps', (req, res) => sendStatus(res, 403, 'Forbidden', 'configmaps is forbidden: User "bob" cannot list resource "configmaps"'));
  // A selector the server cannot parse: retried, it would be refused forever.
  const badSelector = await cluster(t, {});
  badSelector.api.route('/api/v1/namespaces/default/configmaps', (req, res) => sendStatus(res, 400, 'BadRequest', "unable to parse requirement: found '(', expected: identifier"));

  // Independent processes: run them side by side.
  const cases: [string[], RegExp][] = [
    [['watch', 'cm', '--kubeconfig', path.join(c.dir, 'missing')], /^controller-lab watch: kubeconfig .*missing does not exist$/m],
    [['watch', 'cm', '--kubeconfig', c.kubeconfig, '--context', 'nope'], /context "nope" not found/],
    [['watch', 'gizmos', '--kubeconfig', c.kubeconfig], /the server doesn't have a resource type "gizmos"/],
    [['watch', 'cm', '--kubeconfig', closed.kubeconfig], new RegExp(`cannot reach ${deadUrl}: connection refused`)],
    [['watch', 'cm', '--kubeconfig', denied.kubeconfig], /unauthorized \(401\)/],
    [['watch', 'cm', '--kubeconfig', forbidden.kubeconfig], /forbidden \(403\): configmaps is forbidden: User "bob"/],
    [['watch', 'cm', '--kubeconfig', badSelector.kubeconfig, '-l', 'a=('], /the server answered 400 BadRequest: unable to parse requirement: found '\(', expected: identifier/],
  ];
  const results = await Promise.all(cases.map(([args]) => runCli(args)));
  results.forEach((r, i) => {
    const [args, pattern] = cases[i]!;
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, pattern);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.equal(r.stdout, '', `${args.join(' ')}: no table header for a watch that never started`);
  });
});

// A user whose Role is in one namespace asks for -A: kube-apiserver refuses "at the cluster scope".
// client-go's reflector would retry that forever; the command says what to do instead.
test('-A refused at the cluster scope (a namespaced Role) says to name a namespace with -n', async (t) => {
  const c = await cluster(t, {});
  c.api.route('/api/v1/configmaps', (req, res) => sendStatus(res, 403, 'Forbidden', 'configmaps is forbidden: User "dev" cannot list resource "configmaps" in API group "" at the cluster scope'));
  const r = await runCli(['watch', 'cm', '-A', '--kubeconfig', c.kubeconfig]);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /^controller-lab watch: forbidden \(403\): configmaps is forbidden: User "dev" cannot list resource "configmaps" in API group "" at the cluster scope; -A needs access in every namespace: name one you may read with -n NAMESPACE$/m);
});

// kube-apiserver stops serving a kind when its CRD is deleted: list and watch answer a bare "404
// page not found". client-go retries it forever; the warning says which kind went, and the likely why.
test('a kind no longer served after the sync (its CRD deleted) is a warning naming it, retried', async (t) => {
  const c = await cluster(t, { items: [configMap('a', '5')], refuseWatch: () => ({ code: 404, reason: 'NotFound', message: '404 page not found' }) });
  const cli = startCli(['watch', 'cm', '--kubeconfig', c.kubeconfig]);
  await cli.waitForStdout(' a ');
  while (c.watches < 1) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 300));
  cli.child.kill('SIGINT');
  const r = await cli.done;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^controller-lab watch: warning: the server no longer serves configmaps \(404 NotFound: 404 page not found\): its CustomResourceDefinition deleted, or its API removed\? \(retrying\)$/m);
});

test('usage errors and help', async () => {
  const [top, none, unknown, help, helpWatch, bad, missing, both] = await Promise.all([
    runCli(['--help']),
    runCli([]),
    runCli(['frobnicate']),
    runCli(['watch', '--help']),
    runCli(['help', 'watch']),
    runCli(['watch', 'cm', '-o', 'yaml']),
    runCli(['watch']),
    runCli(['watch', 'cm', '-n', 'x', '-A']),
  ]);
  assert.equal(top.code, 0);
  assert.match(top.stdout, /usage: controller-lab <command>[\s\S]*\n {2}watch +watch a resource/);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /usage: controller-lab/);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--exit-when-seen NS\/NAME/);
  assert.deepEqual(helpWatch.stdout, help.stdout);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--output must be one of events, jsonl, none \(got "yaml"\)/);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /RESOURCE is required/);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /-n and -A exclude each other/);
});

test('the process stays up through the informer backoff after a watch that closed at once', async (t) => {
  const c = await cluster(t, {
    items: [configMap('a', '5')],
    watch: (res, attempt) => (attempt === 0 ? res.end() : res.write(watchLine('ADDED', 'late', '12'))),
  });
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '-o', 'none', '--exit-when-seen', 'default/late']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /warning: very short watch.*\(retrying\)/);
  assert.match(r.stderr, /^lists=1 watches=2 relists=0 410s=0 events=1 /m);
});
