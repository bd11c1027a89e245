import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { GoControllerProcess } from '../../../src/runtime/goControllerProcess.ts';
import { launchSim } from '../../../src/runtime/simLauncher.ts';
import { DelveRunner } from '../../../src/debug/delveRunner.ts';
import { findDelve } from '../../../src/debug/delveBinary.ts';

// A real Go controller (go/examples/configmap-mirror) built for Delve and launched by a real
// `dlv dap`, reporting to Controller Lab as usual: a line breakpoint inside its Reconcile stops
// the program there, Delve's stack and locals are readable, and ending the run leaves neither
// dlv nor the program running.

const goModule = fileURLToPath(new URL('../../../go', import.meta.url));
const mainGo = `${goModule}/examples/configmap-mirror/main.go`;
const LABEL_LINE = 35; // `if src.Labels["mirror"] != "source" {` in Reconcile
const CM = { group: '', version: 'v1', resource: 'configmaps' };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('a Go line breakpoint in Reconcile stops the program under Delve, with its stack and locals; stopping leaves no process', { timeout: 600_000 }, async (t) => {
  const dlvPath = findDelve();
  const sim = await launchSim();
  let placed: DebugProtocol.Breakpoint[] = [];
  const runner = new DelveRunner({
    dlvPath,
    // Only the reconcile of our ConfigMap: the namespaces' kube-root-ca.crt are reconciled too.
    configure: async (d) => void (placed = await d.setBreakpoints(mainGo, [{ line: LABEL_LINE, condition: 'req.NamespacedName.Name == "src"' }])),
  });
  const go = new GoControllerProcess();
  t.after(async () => {
    await go.stop();
    await sim.stop();
  });
  go.on('reconcileStart', (m) => {
    if (m.gated) go.proceed(m.record.reconcileId);
  });
  const synced = new Promise<void>((done) => go.once('synced', () => done()));
  let fatal = '';
  go.on('fatal', (f) => (fatal += f.message));
  const startedAt = performance.now();
  const ok = await go.start({ packageDir: `${goModule}/examples/configmap-mirror`, moduleDir: goModule, kubeconfig: sim.kubeconfigPath, gated: true, mirrorCache: false, runner });
  assert.ok(ok, `did not start under Delve: ${fatal}`);
  const delve = runner.debugger;
  assert.ok(delve);
  assert.equal(placed[0]?.verified, true, `breakpoint not placed: ${placed[0]?.message}`);
  assert.equal(placed[0]?.line, LABEL_LINE);
  await synced;

  const stopped = new Promise<DebugProtocol.StoppedEvent['body']>((done) => delve.once('stopped', done));
  sim.cluster.create(CM, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'src', labels: { mirror: 'source' } }, data: { a: '1' } });
  const stop = await stopped;
  t.diagnostic(`start to first breakpoint: ${Math.round(performance.now() - startedAt)} ms (build included)`);
  assert.equal(stop.reason, 'breakpoint');
  assert.ok(stop.threadId !== undefined);

  const frames = await delve.stackTrace(stop.threadId);
  const top = frames[0];
  assert.ok(top);
  assert.match(top.name, /mirrorReconciler\)\.Reconcile$/);
  assert.equal(top.source?.path, mainGo);
  assert.equal(top.line, LABEL_LINE);

  // Delve shows arguments and locals in one scope.
  const scopes = await delve.scopes(top.id);
  const locals = scopes.find((s) => s.name === 'Locals');
  assert.ok(locals, `no Locals scope (have ${scopes.map((s) => s.name).join(', ')})`);
  const vars = await delve.variables(locals.variablesReference);
  const req = vars.find((v) => v.name === 'req');
  assert.ok(req, `no req (have ${vars.map((v) => v.name).join(', ')})`);
  assert.match(req.value, /src/);
  const evaluated = await delve.request<DebugProtocol.EvaluateResponse>('evaluate', { expression: 'req.NamespacedName.Name', frameId: top.id, context: 'watch' });
  assert.equal(evaluated.body.result, '"src"');
  const src = vars.find((v) => v.name === 'src');
  assert.ok(src, 'no src local');
  assert.match(src.type ?? '', /ConfigMap/);
  // Stopped in Delve, the program writes nothing: the mirror does not exist yet.
  assert.throws(() => sim.cluster.get(CM, 'default', 'src-mirror'));

  const dlvPid = delve.pid;
  const programPid = go.programPid;
  assert.ok(dlvPid && programPid && dlvPid !== programPid);
  assert.ok(isAlive(dlvPid) && isAlive(programPid));
  // Stopping while the program sits at the breakpoint: it cannot read the shutdown message.
  await go.stop();
  assert.equal(go.running, false);
  assert.equal(isAlive(dlvPid), false, 'dlv is still running');
  for (let i = 0; i < 50 && isAlive(programPid); i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(isAlive(programPid), false, 'the Go program is still running');
});
