import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { listContexts, resolveContext } from '../../../src/kube/kubeconfig.ts';
import { KubeconfigError, describeFailure } from '../../../src/kube/errors.ts';
import { scratchDir } from './support/loopbackApi.ts';

const yamlConfig = (current: string, extra = '') => `apiVersion: v1
kind: Config
current-context: ${current}
clusters:
- name: dev
  cluster:
    server: https://dev.example:6443/
    certificate-authority: certs/ca.crt
- name: prod
  cluster:
    server: https://prod.example
contexts:
- name: dev
  context: {cluster: dev, user: alice, namespace: team-a}
- name: prod
  context: {cluster: prod, user: alice}
users:
- name: alice
  user:
    token: abc
${extra}`;

test('the current context gives cluster, user, namespace; relative CA paths resolve against the file', (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const file = path.join(dir, 'kc.yaml');
  writeFileSync(file, yamlConfig('dev'));
  const ctx = resolveContext({ kubeconfig: file }, {});
  assert.equal(ctx.contextName, 'dev');
  assert.equal(ctx.cluster.server, 'https://dev.example:6443');
  assert.equal(ctx.cluster.caFile, path.join(dir, 'certs/ca.crt'));
  assert.equal(ctx.user.token, 'abc');
  assert.equal(ctx.namespace, 'team-a');
});

test('--context picks another context; a context without namespace defaults to "default"', (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const file = path.join(dir, 'kc.yaml');
  writeFileSync(file, yamlConfig('dev'));
  const ctx = resolveContext({ kubeconfig: file, context: 'prod' }, {});
  assert.equal(ctx.cluster.server, 'https://prod.example');
  assert.equal(ctx.namespace, 'default');
});

test('KUBECONFIG merges files: the first to define a name or a current-context wins', (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const a = path.join(dir, 'a');
  const b = path.join(dir, 'b');
  writeFileSync(a, 'apiVersion: v1\nkind: Config\nclusters:\n- name: dev\n  cluster: {server: "https://first"}\n');
  writeFileSync(b, yamlConfig('dev'));
  const ctx = resolveContext({}, { KUBECONFIG: `${a}${path.delimiter}${path.join(dir, 'missing')}${path.delimiter}${b}` });
  assert.equal(ctx.cluster.server, 'https://first');
  assert.equal(ctx.namespace, 'team-a');
  assert.deepEqual(ctx.files, [a, b]);
});

test('without --kubeconfig or KUBECONFIG, ~/.kube/config is read', (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const kube = path.join(dir, '.kube');
  mkdirSync(kube, { recursive: true });
  writeFileSync(path.join(kube, 'config'), yamlConfig('prod'));
  assert.equal(resolveContext({}, { HOME: dir }).contextName, 'prod');
});


test('every kubeconfig problem is a KubeconfigError naming the cause', (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const bad = (content: string, selection: { context?: string } = {}) => {
    const file = path.join(dir, `kc-${Math.random()}`);
    writeFileSync(file, content);
    return () => resolveContext({ kubeconfig: file, ...selection }, {});
  };
  const cases: [() => unknown, RegExp][] = [
    [() => resolveContext({ kubeconfig: path.join(dir, 'nope') }, {}), /does not exist/],
    [bad('clusters: [unclosed'), /not valid YAML/],
    [() => resolveContext({ kubeconfig: dir }, {}), /^cannot read kubeconfig .*: it is a directory$/],
    [bad(yamlConfig('dev'), { context: 'staging' }), /context "staging" not found .*dev, prod/],
    [bad(yamlConfig('')), /no current-context/],
    [bad('clusters:\n- name: x\n  cluster: {}\n'), /clusters\[0\]\.cluster\.server is missing/],
    [bad(yamlConfig('dev').replace('cluster: dev, user', 'cluster: gone, user')), /cluster "gone"/],
    [() => resolveContext({}, { HOME: dir }), /no kubeconfig found/],
  ];
  for (const [fn, message] of cases) {
    assert.throws(fn, (err: unknown) => err instanceof KubeconfigError && message.test(err.message) && describeFailure(err).kind === 'kubeconfig');
  }
});

test('listContexts shows every context with its server and namespace, and the current one', (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const file = path.join(dir, 'kc.yaml');
  writeFileSync(file, yamlConfig('prod'));
  assert.deepEqual(listContexts({ kubeconfig: file }, {}), {
    contexts: [
      { name: 'dev', cluster: 'dev', server: 'https://dev.example:6443', user: 'alice', namespace: 'team-a' },
      { name: 'prod', cluster: 'prod', server: 'https://prod.example', user: 'alice', namespace: 'default' },
    ],
    current: 'prod',
    files: [file],
  });
});

test('a kubeconfig in JSON reads as its YAML form does; flow-style YAML that opens with a brace still reads', (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const json = path.join(dir, 'kc.json');
  writeFileSync(json, JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'dev',
    clusters: [{ name: 'dev', cluster: { server: 'https://dev.example:6443/', 'certificate-authority': 'certs/ca.crt' } }],
    contexts: [{ name: 'dev', context: { cluster: 'dev', user: 'alice', namespace: 'team-a' } }],
    users: [{ name: 'alice', user: { token: 'abc' } }],
  }));
  const yaml = path.join(dir, 'kc.yaml');
  writeFileSync(yaml, yamlConfig('dev'));
  assert.deepEqual(resolveContext({ kubeconfig: json }, {}), { ...resolveContext({ kubeconfig: yaml }, {}), files: [json] });
  const flow = path.join(dir, 'flow.yaml');
  writeFileSync(flow, `{current-context: dev, clusters: [{name: dev, cluster: {server: 'https://flow.example'}}], # not JSON
  contexts: [{name: dev, context: {cluster: dev, user: u}}], users: [{name: u, user: {token: t}}]}`);
  assert.equal(resolveContext({ kubeconfig: flow }, {}).cluster.server, 'https://flow.example');
});
