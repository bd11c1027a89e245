import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ControllerSession } from '../../../src/runtime/controllerSession.ts';
import { launchSim } from '../../../src/runtime/simLauncher.ts';
import type { ReconcileRecord } from '../../../src/controllerProtocol/records.ts';
import { ControllerSessionsModel } from '../../../src/vscode/controllers/controllerSessionsModel.ts';
import { ControllerTreeRows } from '../../../src/vscode/controllers/controllerTreeRows.ts';
import { controllerNodeIds } from '../../../src/vscode/tree/controllerTreeNodes.ts';
import { publishToTimeline } from '../../../src/vscode/controllers/controllerTimeline.ts';
import type { SessionLike } from '../../../src/vscode/controllers/sessionLike.ts';
import { TimelineFeed } from '../../../src/vscode/model/timelineFeed.ts';
import { spanLaneKey } from '../../../src/shared/protocol/reconcileSpans.ts';
import { GO_EXAMPLE, TWO_CONTROLLERS_PROGRAM, writeGoProgram } from './support/goPrograms.ts';

// ControllerSession on Go controller-runtime programs, built and run for real against the simulated
// cluster: a manager with several controllers, and a Go process killed under it.

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const SECRET = { group: '', version: 'v1', resource: 'secrets' };

function until<T>(what: string, check: () => T | undefined, ms = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + ms;
    const poll = () => {
      const v = check();
      if (v !== undefined) return resolve(v);
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(poll, 25);
    };
    poll();
  });
}

test('a Go manager with two controllers: each is ready, keeps its own queue, and its records and tree row name it', { timeout: 600_000 }, async (t) => {
  const program = writeGoProgram(TWO_CONTROLLERS_PROGRAM);
  const sim = await launchSim();
  const session = new ControllerSession({ file: program.dir, kubeconfig: sim.kubeconfigPath, mirrorCache: false });
  t.after(async () => {
    await session.stop();
    await sim.stop();
    program.dispose();
  });
  const model = new ControllerSessionsModel();
  const tree = new ControllerTreeRows(model);
  const feed = new TimelineFeed(1000);
  const id = model.track(session as unknown as SessionLike, program.dir);
  publishToTimeline(session as unknown as SessionLike, feed, () => model.entries.get(id)?.name ?? id);
  const ready: string[] = [];
  const records: ReconcileRecord[] = [];
  const queuesBy = new Set<string>();
  session.on('ready', ({ controller }) => ready.push(controller.name));
  session.on('reconcileEnd', ({ record }) => records.push(record));
  session.on('queue', ({ controller }) => controller && queuesBy.add(controller));
  const synced = new Promise<void>((done) => session.once('synced', () => done()));
  assert.equal(await session.start(), true);
  await synced;
  assert.deepEqual([...ready].sort(), ['configs', 'secrets']);
  assert.deepEqual(session.controllers.map((c) => `${c.name}:${c.forKind.kind}`).sort(), ['configs:ConfigMap', 'secrets:Secret']);

  sim.cluster.create(CM, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'same' }, data: { a: '1' } });
  sim.cluster.create(SECRET, 'default', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'same' }, data: { b: 'Mg==' } });
  const cm = await until('the ConfigMap reconcile', () => records.find((r) => r.key === 'default/same' && r.controller === 'configs'));
  const secret = await until('the Secret reconcile', () => records.find((r) => r.key === 'default/same' && r.controller === 'secrets'));
  assert.equal(cm.forKind.kind, 'ConfigMap');
  assert.equal(secret.forKind.kind, 'Secret');
  assert.deepEqual([...queuesBy].sort(), ['configs', 'secrets']);
  await until('both controllers idle', () => (session.idle ? true : undefined));
  assert.equal(session.queueOf('configs').depth + session.queueOf('secrets').depth, 0);

  // The tree's Controllers row: one row for the process, named after both controllers.
  const entry = model.entries.get(id);
  assert.equal(entry?.name, ready.join(', '));
  const row = tree.item(tree.node({ kind: 'controller', id: controllerNodeIds.controller(id), sessionId: id }));
  assert.match(row.label, /configs/);
  assert.match(row.label, /secrets/);
  assert.match(row.description ?? '', new RegExp(`${records.length} reconciles`));
  // The timeline: each controller's reconcile of the same key is a span on a lane of its own.
  const spans = feed.spans().filter((sp) => sp.key === 'default/same' && sp.endedAt !== undefined);
  assert.deepEqual(spans.map((sp) => `${sp.controller} ${sp.kind}`).sort(), ['configs ConfigMap', 'secrets Secret']);
  assert.equal(new Set(spans.map(spanLaneKey)).size, 2);
});

test('a Go controller process killed under the session ends it with a clear message', { timeout: 600_000 }, async (t) => {
  const sim = await launchSim();
  const session = new ControllerSession({ file: GO_EXAMPLE, kubeconfig: sim.kubeconfigPath, restartOnFailure: true });
  t.after(async () => {
    await session.stop();
    await sim.stop();
  });
  const fatal: string[] = [];
  session.on('fatal', ({ phase, message }) => fatal.push(`${phase}: ${message}`));
  const synced = new Promise<void>((done) => session.once('synced', () => done()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => session.once('exit', done));
  assert.equal(await session.start(), true);
  await synced;
  const pid = session.pid as number;
  process.kill(pid, 'SIGKILL');
  const exit = await exited;
  assert.equal(exit.signal, 'SIGKILL');
  assert.equal(session.running, false);
  assert.deepEqual(fatal, [`run: the Go controller process (pid ${pid}) exited (signal SIGKILL) outside any reconcile`]);
});

test('a Go program started through a wrapper command (as a line debugger would start it) runs under it; a wrapper that is not installed is a clear failure', { timeout: 600_000 }, async (t) => {
  const sim = await launchSim();
  t.after(() => sim.stop());
  const wrapped: string[][] = [];
  const viaEnv = new ControllerSession({
    file: GO_EXAMPLE,
    kubeconfig: sim.kubeconfigPath,
    go: {
      buildFlags: ['-gcflags=all=-N -l'],
      wrapCommand: (binary, args) => {
        wrapped.push([binary, ...args]);
        return { command: '/usr/bin/env', args: [binary, ...args] };
      },
      args: ['--zap-devel'],
    },
  });
  try {
    const ready = new Promise<string>((done) => viaEnv.once('ready', ({ controller }) => done(controller.name)));
    assert.equal(await viaEnv.start(), true);
    assert.equal(await ready, 'configmap-mirror');
    assert.equal(wrapped.length, 1);
    assert.deepEqual(wrapped[0]?.slice(1), ['--zap-devel']);
  } finally {
    await viaEnv.stop();
  }

  const missing = new ControllerSession({ file: GO_EXAMPLE, kubeconfig: sim.kubeconfigPath, go: { wrapCommand: (binary) => ({ command: '/nonexistent/dlv', args: ['exec', binary] }) } });
  try {
    const fatal: string[] = [];
    missing.on('fatal', ({ phase, message }) => fatal.push(`${phase}: ${message}`));
    const exited = new Promise<void>((done) => missing.once('exit', () => done()));
    assert.equal(await missing.start(), true);
    await exited;
    assert.match(fatal.join('\n'), /^load: cannot start \/nonexistent\/dlv: spawn \/nonexistent\/dlv ENOENT$/);
  } finally {
    await missing.stop();
  }
});
