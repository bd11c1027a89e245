import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { launchSim } from '../../../../src/runtime/simLauncher.ts';
import { DELVE_BUILD_FLAGS, DelveDebugger, delveExecCommand, freeLoopbackPort } from '../../../../src/debug/go/delveDebugger.ts';
import { findDelve } from '../../../../src/debug/go/delveBinary.ts';
import { buildMirror, childrenOf, CM, commandOf, isAlive, isStillRunning, LABEL_LINE, processRef, programUnder, MIRROR_MAIN as mainGo, until } from '../support/goUnderDelve.ts';

// A real controller-runtime program (go/examples/configmap-mirror) built for Delve, run by a
// real headless dlv and driven over DAP as VS Code's Go extension does for a remote attach: a line
// breakpoint inside its Reconcile stops it there, Delve's stack and locals are readable, and
// ending the session leaves neither dlv nor the program running.

test('a Go line breakpoint in Reconcile stops the program under Delve, with its stack and locals; ending the session leaves no process', { timeout: 600_000 }, async (t) => {
  const dlvPath = findDelve();
  const sim = await launchSim();
  const dir = mkdtempSync(join(tmpdir(), 'cl-delve-'));
  const binary = join(dir, 'configmap-mirror');
  const cleanup: (() => unknown)[] = [];
  t.after(async () => {
    for (const c of cleanup.reverse()) await c();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const startedAt = performance.now();
  await buildMirror(binary, DELVE_BUILD_FLAGS);
  const builtAt = performance.now();
  const port = await freeLoopbackPort();
  const command = delveExecCommand(dlvPath, port, binary, []);
  // Not started by Controller Lab (no CONTROLLER_LAB_SOCKET): controllerlab.Wrap leaves the manager as it is.
  const dlv = spawn(command.command, command.args, { env: { ...process.env, KUBECONFIG: sim.kubeconfigPath }, stdio: ['ignore', 'pipe', 'pipe'] });
  const dlvExited = new Promise<void>((done) => dlv.once('exit', () => done()));
  cleanup.push(async () => {
    dlv.kill('SIGKILL');
    await dlvExited;
  });
  let output = '';
  dlv.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
  dlv.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));

  const delve = await DelveDebugger.attach({ port });
  cleanup.push(() => delve.shutdown());
  const placed = await delve.setBreakpoints(mainGo, [{ line: LABEL_LINE, condition: 'req.NamespacedName.Name == "src"' }]);
  assert.equal(placed[0]?.verified, true, `breakpoint not placed: ${placed[0]?.message}`);
  assert.equal(placed[0]?.line, LABEL_LINE);
  const stopped = new Promise<DebugProtocol.StoppedEvent['body']>((done) => delve.once('stopped', done));
  await delve.configurationDone();

  // The program runs: its informers list the ConfigMaps; ours is created after it started.
  await new Promise((r) => setTimeout(r, 500));
  sim.cluster.create(CM, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'src', labels: { mirror: 'source' } }, data: { a: '1' } });
  const stop = await stopped;
  t.diagnostic(`go build -gcflags=all=-N -l: ${Math.round(builtAt - startedAt)} ms; dlv start to the breakpoint hit: ${Math.round(performance.now() - builtAt)} ms`);
  assert.equal(stop.reason, 'breakpoint', output);
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
  const src = vars.find((v) => v.name === 'src');
  assert.match(src?.type ?? '', /ConfigMap/);
  const evaluated = await delve.request<DebugProtocol.EvaluateResponse>('evaluate', { expression: 'src.Data["a"]', frameId: top.id, context: 'watch' });
  assert.equal(evaluated.body.result, '"1"');
  // Stopped in Delve, the program writes nothing: the mirror does not exist yet.
  assert.throws(() => sim.cluster.get(CM, 'default', 'src-mirror'));

  const programPid = programUnder(dlv.pid ?? 0, binary) ?? 0;
  const dlvChildren = childrenOf(dlv.pid ?? 0).map(processRef);
  assert.ok(isAlive(programPid));
  // Ending the session while the program sits at the breakpoint.
  await delve.shutdown();
  assert.ok(await until(() => dlv.exitCode !== null || dlv.signalCode !== null, 5000), 'dlv is still running');
  assert.ok(await until(() => !isAlive(programPid), 5000), 'the Go program is still running');
  // dlv also starts Go telemetry's short-lived child (`dlv ** telemetry **`), which outlives dlv by a second or so.
  assert.ok(await until(() => !dlvChildren.some(isStillRunning), 10_000), `a process dlv started is still running: ${dlvChildren.filter(isStillRunning).map(commandOf).join('; ')}`);
});
