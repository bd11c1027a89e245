import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { kubeconfigFor } from '../../../src/runtime/kubeconfigContext.ts';

// `--context` / `"cluster": { "context" }` for a Go program, which reads KUBECONFIG's
// current-context, and `--as` for any controller: a private copy of the kubeconfig saying so.

const KUBECONFIG = `apiVersion: v1
kind: Config
current-context: prod
clusters:
  - { name: prod, cluster: { server: "https://prod.example:6443" } }
  - { name: dev, cluster: { server: "https://127.0.0.1:6443" } }
users:
  - { name: me, user: { token: secret-token } }
  - { name: ci, user: { token: ci-token } }
contexts:
  - { name: prod, context: { cluster: prod, user: ci } }
  - { name: kind-dev, context: { cluster: dev, user: me } }
`;

interface Config {
  'current-context': string;
  users: { name: string; user: Record<string, unknown> }[];
}

function withSource(run: (source: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'cl-kubeconfig-'));
  try {
    const source = join(dir, 'config');
    writeFileSync(source, KUBECONFIG);
    run(source);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a copy of the kubeconfig with the chosen current-context, private, removed on dispose; an unknown context is an error', () => {
  withSource((source) => {
    const copy = kubeconfigFor(source, { context: 'kind-dev' });
    const config = parse(readFileSync(copy.path, 'utf8')) as Config;
    assert.equal(config['current-context'], 'kind-dev');
    assert.equal(config.users.length, 2);
    assert.equal(statSync(copy.path).mode & 0o777, 0o600);
    assert.equal(parse(readFileSync(source, 'utf8'))['current-context'], 'prod', 'the user\'s file is left alone');
    copy.dispose();
    assert.equal(existsSync(copy.path), false);
    assert.throws(() => kubeconfigFor(source, { context: 'staging' }), /context "staging" not found in .*config/);
  });
});

test('running as a user puts `as:` on the chosen context\'s user, keeping its credentials, and only there', () => {
  withSource((source) => {
    const asBot = kubeconfigFor(source, { runAs: 'system:serviceaccount:team:bot' });
    const config = parse(readFileSync(asBot.path, 'utf8')) as Config;
    assert.equal(config['current-context'], 'prod');
    assert.deepEqual(config.users.find((u) => u.name === 'ci')?.user, { token: 'ci-token', as: 'system:serviceaccount:team:bot' });
    assert.deepEqual(config.users.find((u) => u.name === 'me')?.user, { token: 'secret-token' });
    asBot.dispose();
    const devCopy = kubeconfigFor(source, { context: 'kind-dev', runAs: 'jane' });
    const dev = parse(readFileSync(devCopy.path, 'utf8')) as Config;
    devCopy.dispose();
    assert.deepEqual(dev.users.find((u) => u.name === 'me')?.user, { token: 'secret-token', as: 'jane' });
  });
});
