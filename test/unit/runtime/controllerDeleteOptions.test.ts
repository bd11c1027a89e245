import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimCluster } from '../../../src/sim/simCluster.ts';
import { startSimServer } from '../../../src/sim/server/simServer.ts';

// `ctx.client.delete(obj, { preconditions: { uid } })` in a TypeScript controller, as client-go's
// DeleteOptions.Preconditions: the API server deletes only that very object, and answers another
// under its name (deleted and made again since it was read) with 409 Conflict; a propagationPolicy
// goes with the delete too.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'src/cli/main.ts');
const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

const CONTROLLER = `import { defineController } from 'controller-lab';
export default defineController({
  name: 'deleter',
  for: { apiVersion: 'v1', kind: 'ConfigMap' },
  async reconcile(req, ctx) {
    const cm = ctx.get('ConfigMap', req.namespace, req.name);
    if (!cm || (req.name !== 'seen' && req.name !== 'remade')) return;
    const uid = req.name === 'remade' ? 'the-uid-of-one-deleted-since' : cm.metadata.uid;
    try {
      await ctx.client.delete(cm, { preconditions: { uid }, propagationPolicy: 'Foreground' });
      ctx.log.info('deleted ' + req.name);
    } catch (e) {
      ctx.log.info('refused ' + req.name + ': ' + e.code + ' ' + e.message);
    }
  },
});
`;

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test('a TypeScript controller deletes with a uid precondition: another object under the name is a 409 Conflict', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-delete-options-'));
  const cluster = createSimCluster();
  const server = await startSimServer(cluster);
  try {
    const file = join(dir, 'deleter.ts');
    writeFileSync(file, CONTROLLER);
    for (const name of ['seen', 'remade']) cluster.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    const remadeUid = cluster.get(CONFIGMAPS, 'default', 'remade').object.metadata.uid ?? '';
    const r = await runCli([file, '--kubeconfig', server.kubeconfigPath, '--until-idle', '--timeout', '40']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /deleted seen/);
    assert.throws(() => cluster.get(CONFIGMAPS, 'default', 'seen'), /not found/, 'the object whose uid it named is deleted');
    assert.match(r.stdout, new RegExp(`refused remade: 409 .*the UID in the precondition \\(the-uid-of-one-deleted-since\\) does not match the UID in record \\(${remadeUid}\\)`));
    assert.equal(cluster.get(CONFIGMAPS, 'default', 'remade').object.metadata.uid, remadeUid, 'another object under the name is left alone');
  } finally {
    await server.stop();
    await cluster.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('client.delete refuses options the API server would not take, naming the field', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-delete-options-'));
  const cluster = createSimCluster();
  const server = await startSimServer(cluster);
  try {
    const file = join(dir, 'deleter.ts');
    writeFileSync(file, CONTROLLER.replace(`{ preconditions: { uid }, propagationPolicy: 'Foreground' }`, `{ preconditions: { uid: '' }, propagationPolicy: 'Foreground' }`));
    cluster.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'seen' } });
    const r = await runCli([file, '--kubeconfig', server.kubeconfigPath, '--until-idle', '--timeout', '40']);
    assert.match(r.stdout, /refused seen: undefined client\.delete: preconditions\.uid must be a non-empty string/);
    assert.ok(cluster.get(CONFIGMAPS, 'default', 'seen'), 'nothing was sent');
  } finally {
    await server.stop();
    await cluster.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
