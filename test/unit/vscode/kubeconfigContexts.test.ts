import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectPickerText, listKubeconfigContexts } from '../../../src/vscode/backends/kubeconfigContexts.ts';

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

describe('Connect to Cluster… with a kubeconfig it cannot use', () => {
  it('names a file the setting gives that is not there', () => {
    const { contexts, problems } = listKubeconfigContexts('/nonexistent-dir/kubeconfig');
    assert.deepEqual(contexts, []);
    assert.deepEqual(problems, ['/nonexistent-dir/kubeconfig: no such file (the controllerLab.kubeconfig setting names it)']);
  });

  it('shows each unreadable file as a row with why, and does not say there is simply no context', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-'));
    const file = join(dir, 'config');
    writeFileSync(file, 'users:\n- name: u\n  user: {token: x\n');
    const { placeHolder, problemRows } = connectPickerText(listKubeconfigContexts(file));
    assert.match(placeHolder, /could not be read/);
    assert.equal(problemRows.length, 1);
    assert.equal(problemRows[0]?.file, file);
    assert.equal(problemRows[0]?.description, file);
    assert.match(problemRows[0]?.detail ?? '', /at line \d+/);
  });

  it('a readable kubeconfig has no problem rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-'));
    const file = join(dir, 'config');
    writeFileSync(file, 'contexts:\n- name: a\n  context: { cluster: ca }\n');
    assert.deepEqual(connectPickerText(listKubeconfigContexts(file)), { placeHolder: 'Connect to which cluster?', problemRows: [] });
  });
});
