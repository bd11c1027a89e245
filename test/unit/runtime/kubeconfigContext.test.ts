import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { kubeconfigWithContext } from '../../../src/runtime/kubeconfigContext.ts';

// `--context` / `"cluster": { "context" }` for a Go program: it reads KUBECONFIG's current-context,
// so it gets a private copy whose current-context is the one chosen.

const KUBECONFIG = `apiVersion: v1
kind: Config
current-context: prod
clusters:
  - { name: prod, cluster: { server: "https://prod.example:6443" } }
  - { name: dev, cluster: { server: "https://127.0.0.1:6443" } }
users:
  - { name: me, user: { token: secret-token } }
contexts:
  - { name: prod, context: { cluster: prod, user: me } }
  - { name: kind-dev, context: { cluster: dev, user: me } }
`;

test('a copy of the kubeconfig with the chosen current-context, private, removed on dispose; an unknown context is an error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-kubeconfig-'));
  try {
    const source = join(dir, 'config');
    writeFileSync(source, KUBECONFIG);
    const copy = kubeconfigWithContext(source, 'kind-dev');
    const config = parse(readFileSync(copy.path, 'utf8')) as { 'current-context': string; users: unknown[] };
    assert.equal(config['current-context'], 'kind-dev');
    assert.equal(config.users.length, 1);
    assert.equal(statSync(copy.path).mode & 0o777, 0o600);
    assert.equal(parse(readFileSync(source, 'utf8'))['current-context'], 'prod', 'the user\'s file is left alone');
    copy.dispose();
    assert.equal(existsSync(copy.path), false);
    assert.throws(() => kubeconfigWithContext(source, 'staging'), /context "staging" not found in .*config/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
