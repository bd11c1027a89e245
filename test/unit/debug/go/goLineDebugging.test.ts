import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { launchSim } from '../../../../src/runtime/simLauncher.ts';
import { findDelve } from '../../../../src/debug/go/delveBinary.ts';
import { GO_BREAKPOINT_BASE, GO_ID_BASE, GO_THREAD_BASE, GoLineDebugging } from '../../../../src/debug/go/goLineDebugging.ts';
import { buildMirror, childrenOf, CM, commandOf, isAlive, isStillRunning, LABEL_LINE, processRef, programUnder, MIRROR_MAIN, until } from '../support/goUnderDelve.ts';

// The reconcile debugger's Go line debugging, with a real dlv: a breakpoint set in a .go file
// before the program starts waits for Delve, is placed when the program starts through the
// command prepare() answers (as GoControllerProcess starts it), and its stop comes back as a
// goroutine thread whose stack, variables and evaluate are Delve's under ids of their own;
// continue lets the reconcile finish; shutdown leaves nothing running.

test('Go breakpoints set before the start wait for Delve, then stop Reconcile on a goroutine thread with Delve\'s stack and variables', { timeout: 600_000 }, async (t) => {
  const go = new GoLineDebugging();
  const sim = await launchSim();
  const dir = mkdtempSync(join(tmpdir(), 'cl-golines-'));
  const cleanup: (() => unknown)[] = [];
  t.after(async () => {
    for (const c of cleanup.reverse()) await c();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const changed: DebugProtocol.BreakpointEvent['body'][] = [];
  go.on('breakpoint', (b) => changed.push(b));

  const overrides = await go.prepare(findDelve(), ['-trimpath=false']);
  assert.deepEqual(overrides.buildFlags, ['-trimpath=false', '-gcflags=all=-N -l']);
  const pending = await go.setBreakpoints({ source: { path: MIRROR_MAIN }, breakpoints: [{ line: LABEL_LINE, condition: 'req.Name == "src"' }] });
  assert.equal(pending[0]?.verified, false);
  assert.match(pending[0]?.message ?? '', /^Building the Go program: placed once it runs under Delve$/);
  const id = pending[0]?.id ?? 0;
  assert.ok(id > GO_BREAKPOINT_BASE);

  const binary = join(dir, 'configmap-mirror');
  await buildMirror(binary, overrides.buildFlags.filter((f) => f.startsWith('-gcflags')));
  const command = overrides.wrapCommand(binary, []);
  const dlv = spawn(command.command, command.args, { env: { ...process.env, KUBECONFIG: sim.kubeconfigPath }, stdio: 'ignore' });
  cleanup.push(() => dlv.kill('SIGKILL'));
  cleanup.push(() => go.shutdown());

  const stopped = new Promise<DebugProtocol.StoppedEvent['body']>((done) => go.once('stopped', done));
  assert.ok(await until(() => changed.length > 0, 60_000), 'the waiting breakpoint was never placed');
  assert.equal(changed[0]?.breakpoint.id, id);
  assert.equal(changed[0]?.breakpoint.verified, true);
  assert.equal(changed[0]?.breakpoint.line, LABEL_LINE);
  await new Promise((r) => setTimeout(r, 500));
  sim.cluster.create(CM, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'src', labels: { mirror: 'source' } }, data: { a: '1' } });
  const stop = await stopped;
  assert.equal(stop.reason, 'breakpoint');
  assert.deepEqual(stop.hitBreakpointIds, [id]);
  const threadId = stop.threadId ?? 0;
  assert.ok(go.ownsThread(threadId) && threadId > GO_THREAD_BASE);
  assert.deepEqual(go.threads(), [{ id: threadId, name: `goroutine ${threadId - GO_THREAD_BASE} (Go)` }]);

  const { stackFrames } = await go.stackTrace({ threadId, levels: 5 });
  const top = stackFrames[0];
  assert.ok(top && go.ownsId(top.id) && top.id > GO_ID_BASE);
  assert.match(top.name, /mirrorReconciler\)\.Reconcile$/);
  assert.equal(top.source?.path, MIRROR_MAIN);
  assert.equal(top.line, LABEL_LINE);
  const locals = (await go.scopes(top.id)).find((s) => s.name === 'Locals');
  assert.ok(locals && go.ownsId(locals.variablesReference));
  const vars = await go.variables({ variablesReference: locals.variablesReference });
  const req = vars.find((v) => v.name === 'req');
  assert.ok(req && go.ownsId(req.variablesReference));
  const reqFields = await go.variables({ variablesReference: req.variablesReference });
  assert.ok(reqFields.some((f) => f.name === 'NamespacedName'), reqFields.map((f) => f.name).join(', '));
  assert.equal((await go.evaluate({ expression: 'src.Name', frameId: top.id, context: 'watch' })).result, '"src"');
  assert.throws(() => sim.cluster.get(CM, 'default', 'src-mirror'));

  await go.step('continue', threadId);
  assert.deepEqual(go.threads(), []);
  assert.ok(await until(() => {
    try {
      return (sim.cluster.get(CM, 'default', 'src-mirror').object.data as Record<string, string> | undefined)?.a === '1';
    } catch {
      return false;
    }
  }, 20_000), 'the reconcile did not finish after continue');

  const programPid = programUnder(dlv.pid ?? 0, binary) ?? 0;
  const dlvChildren = childrenOf(dlv.pid ?? 0).map(processRef);
  assert.ok(isAlive(programPid));
  await go.shutdown();
  assert.ok(await until(() => dlv.exitCode !== null || dlv.signalCode !== null, 5000), 'dlv is still running');
  assert.ok(await until(() => !isAlive(programPid), 5000), 'the Go program is still running');
  // dlv also starts Go telemetry's short-lived child (`dlv ** telemetry **`), which outlives dlv by a second or so.
  assert.ok(await until(() => !dlvChildren.some(isStillRunning), 10_000), `a process dlv started is still running: ${dlvChildren.filter(isStillRunning).map(commandOf).join('; ')}`);
});

test('Go breakpoints set before the launch said Delve was off are told, once the launch asks for Delve, that they wait for the build', async () => {
  const go = new GoLineDebugging();
  const changed: DebugProtocol.BreakpointEvent['body'][] = [];
  go.on('breakpoint', (b) => changed.push(b));
  const early = await go.setBreakpoints({ source: { path: MIRROR_MAIN }, breakpoints: [{ line: LABEL_LINE }] });
  assert.match(early[0]?.message ?? '', /need Delve: set "lineBreakpoints": true/);
  go.expect();
  assert.deepEqual(
    changed.map((c) => [c.reason, c.breakpoint.id, c.breakpoint.verified, c.breakpoint.message]),
    [['changed', early[0]?.id, false, 'Building the Go program: placed once it runs under Delve']],
  );
  go.expect();
  assert.equal(changed.length, 1, 'a second expect() says nothing new');
});
