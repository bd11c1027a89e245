import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listKubeconfigContexts } from '../../../src/vscode/backends/kubeconfigContexts.ts';

describe('kubeconfig contexts', () => {
  it('lists contexts from the given file and marks the current one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-'));
    const file = join(dir, 'config');
    writeFileSync(file, 'apiVersion: v1\nkind: Config\ncurrent-context: b\ncontexts:\n- name: a\n  context: { cluster: ca }\n- name: b\n  context: { cluster: cb, namespace: prod }\n');
    const { contexts, problems } = listKubeconfigContexts(file);
    assert.deepEqual(problems, []);
    assert.deepEqual(contexts.map((c) => [c.name, c.cluster, c.current, c.namespace]), [['a', 'ca', false, undefined], ['b', 'cb', true, 'prod']]);
  });

  it('finds nothing, quietly, when there is no kubeconfig', () => {
    const { contexts, problems } = listKubeconfigContexts(undefined, { HOME: '/nonexistent-home' });
    assert.deepEqual(contexts, []);
    assert.deepEqual(problems, []);
  });

  it('reports an unreadable file as a problem, not an exception', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-'));
    const file = join(dir, 'config');
    writeFileSync(file, 'contexts: [unclosed');
    const { contexts, problems } = listKubeconfigContexts(file);
    assert.deepEqual(contexts, []);
    assert.equal(problems.length, 1);
  });
});
