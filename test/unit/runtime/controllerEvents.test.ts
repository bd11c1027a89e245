import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '../../../src/shared/k8s.ts';
import { createSimCluster } from '../../../src/sim/simCluster.ts';
import { startSimServer } from '../../../src/sim/server/simServer.ts';

// `ctx.recorder.event(…)` in a TypeScript controller, as controller-runtime's EventRecorder: the
// Event is on the cluster when `controller-lab run --until-idle` exits (written in the background,
// flushed at the end), from the controller's name, a repeat counted on the same Event, a message
// past 1,024 characters cut, and the reconcile's log saying what was recorded.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'src/cli/main.ts');
const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const EVENTS = { group: '', version: 'v1', resource: 'events' };

const CONTROLLER = `import { defineController } from 'controller-lab';
export default defineController({
  name: 'greeter',
  for: { apiVersion: 'v1', kind: 'ConfigMap' },
  reconcile(req, ctx) {
    const cm = ctx.get('ConfigMap', req.namespace, req.name);
    if (!cm || req.namespace !== 'default') return;
    ctx.recorder.event(cm, 'Normal', 'Greeted', 'hello ' + req.name);
    ctx.recorder.event(cm, 'Normal', 'Greeted', 'hello ' + req.name);
    if (req.name === 'loud') ctx.recorder.event(cm, 'Warning', 'TooLong', 'x'.repeat(2000));
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

test('a TypeScript controller records Events with ctx.recorder, as controller-runtime does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-events-'));
  const cluster = createSimCluster();
  const server = await startSimServer(cluster);
  try {
    const file = join(dir, 'greeter.ts');
    writeFileSync(file, CONTROLLER);
    for (const name of ['quiet', 'loud']) cluster.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    const r = await runCli([file, '--kubeconfig', server.kubeconfigPath, '--until-idle', '--timeout', '40']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /event Normal Greeted on ConfigMap default\/quiet: hello quiet/);

    type EventObject = KubeObject & { involvedObject: { name: string; uid: string }; reason: string; message: string; type: string; count: number; source: unknown };
    const events = cluster.list(EVENTS, { namespace: 'default' }).items.map((s) => s.object as EventObject);
    const about = (name: string) => events.filter((e) => e.involvedObject.name === name);
    const quiet = about('quiet');
    assert.equal(quiet.length, 1, JSON.stringify(events, null, 1));
    assert.equal(quiet[0]!.reason, 'Greeted');
    assert.equal(quiet[0]!.message, 'hello quiet');
    assert.equal(quiet[0]!.type, 'Normal');
    assert.equal(quiet[0]!.count, 2, 'the repeat raised the count');
    assert.deepEqual(quiet[0]!.source, { component: 'greeter' });
    assert.equal(quiet[0]!.involvedObject.uid, cluster.get(CONFIGMAPS, 'default', 'quiet').object.metadata.uid);
    const long = about('loud').find((e) => e.reason === 'TooLong');
    assert.equal(long?.type, 'Warning');
    assert.equal(long?.message.length, 1024);
  } finally {
    await server.stop();
    await cluster.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
