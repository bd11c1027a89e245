import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { installPacked, MINUTES, run } from './support/packedProduct.ts';

// A Go author's first hour, as they meet it: the product packed with `npm pack`, installed with
// `npm install -g` into a folder of its own (the checkout and its Node are off the PATH, so the
// command starts on the machine's own Node), and a project kubebuilder v4.16 scaffolded
// (fixtures/memcached-operator: `kubebuilder init --domain example.com --repo
// example.com/memcached-operator`, `create api --group cache --version v1alpha1 --kind Memcached
// --resource --controller`, `create webhook … --defaulting --programmatic-validation`; no bin/).
// Then what README says: `controller-lab init go`, `make test`, `controller-lab run`, the debugger.

const FIXTURE = fileURLToPath(new URL('./fixtures/memcached-operator', import.meta.url));

test('the packed product, installed outside the checkout, wires a fresh kubebuilder project: init go, make test, run, the debugger', { timeout: 30 * MINUTES }, async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'cl-first-hour-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));

  const { prefix, env } = installPacked(work);

  const version = await run('controller-lab', ['--version'], { cwd: work, env, timeoutMs: MINUTES });
  assert.match(version.out, /^controller-lab \d+\.\d+\.\d+ \(node v(2[3-9]|22\.(19|[2-9]\d))\.[^)]*\)$/m, `the command runs on a Node it can use:\n${version.out}`);

  const project = join(work, 'memcached-operator');
  cpSync(FIXTURE, project, { recursive: true });
  const init = await run('controller-lab', ['init', 'go'], { cwd: project, env, timeoutMs: 10 * MINUTES });
  assert.equal(init.code, 0, init.out);
  for (const line of [
    /^go\.mod: require github\.com\/controller-lab\/controller-lab\/go v\d+\.\d+\.\d+ \(replace => \.\/controller-lab\/go\)$/m,
    /^cmd\/main\.go: mgr = controllerlab\.Wrap\(mgr\) after ctrl\.NewManager$/m,
    /^internal\/controller\/suite_test\.go: envtest\.Environment → simtest\.Environment/m,
    /^internal\/webhook\/v1alpha1\/webhook_suite_test\.go: envtest\.Environment → simtest\.Environment/m,
    /^Makefile: test runs without setup-envtest/m,
    /^controller-lab\/scenario\.yaml: starter scenario/m,
    /^\.vscode\/launch\.json: debug configurations/m,
  ]) {
    assert.match(init.out, line);
  }
  const again = await run('controller-lab', ['init', 'go'], { cwd: project, env, timeoutMs: 5 * MINUTES });
  assert.equal(again.code, 0, again.out);
  assert.doesNotMatch(again.out.split('\nnext:')[0] ?? '', /^(?!unchanged: |by hand: )\S+: /m, `a second run changes nothing:\n${again.out}`);

  // kubebuilder's own test target, now on the simulated cluster: both Ginkgo suites pass.
  const make = await run('make', ['test'], { cwd: project, env, timeoutMs: 20 * MINUTES });
  assert.equal(make.code, 0, make.out);
  assert.match(make.out, /^ok\s+example\.com\/memcached-operator\/internal\/controller\s/m);
  assert.match(make.out, /^ok\s+example\.com\/memcached-operator\/internal\/webhook\/v1alpha1\s/m);
  assert.doesNotMatch(make.out, /setup-envtest|KUBEBUILDER_ASSETS/);

  // The run command init go printed, as a user copies it.
  const next = /^next:\n((?: {2}.*\n?)+)/m.exec(init.out)?.[1]?.split('\n').map((l) => l.trim()).filter(Boolean) ?? [];
  /** A printed command line as a shell runs it: its leading NAME=value words go to the environment. */
  const typed = (line: string | undefined) => {
    assert.ok(line, init.out);
    const lineEnv: NodeJS.ProcessEnv = { ...env };
    const words = line.split(/\s+/);
    while (/^[A-Z_]+=/.test(words[0] ?? '')) {
      const [name, value] = (words.shift() as string).split('=');
      lineEnv[name as string] = value;
    }
    return { command: words[0] as string, args: words.slice(1), env: lineEnv };
  };
  const runLine = typed(next.find((l) => l.includes('controller-lab run')));
  const runEnv = runLine.env;
  const ran = await run(runLine.command, [...runLine.args, '--timeout', '300'], { cwd: project, env: runEnv, timeoutMs: 15 * MINUTES });
  assert.equal(ran.code, 0, ran.out);
  assert.match(ran.out, /^controller memcached: for Memcached, 1 worker\(s\)$/m);
  assert.match(ran.out, /^#1 Memcached default\/memcached-sample \(ADDED rv \d+\) → ok/m);
  assert.match(ran.out, /"name": "health probe", "addr": "127\.0\.0\.1:\d+"/, 'the health probe listens on loopback');

  // The check command init go printed (with the run's environment), on the
  // same program and starter scenario: kubebuilder's scaffolded Reconcile writes nothing, so there
  // is nothing to find, and check says so.
  const checkLine = typed(next.find((l) => l.includes('controller-lab check')));
  assert.deepEqual(checkLine.args.slice(0, 3), ['check', './cmd', '--scenario']);
  const checked = await run(checkLine.command, checkLine.args, { cwd: project, env: checkLine.env, timeoutMs: 10 * MINUTES });
  assert.equal(checked.code, 0, checked.out);
  assert.match(checked.out, /^reference run 2: quiet after /m, checked.out);
  assert.match(checked.out, /^check: 0 finding\(s\) in \d+ runs/m, checked.out);

  // The debugger, as another DAP client runs it: the package's adapter on the package's Node,
  // the first launch configuration init go wrote.
  const packageDir = join(prefix, 'lib', 'node_modules', 'controller-lab');
  const launchJson = JSON.parse(readFileSync(join(project, '.vscode', 'launch.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { configurations: Record<string, unknown>[] };
  const config = launchJson.configurations.find((c) => c.type === 'controller-lab' && c.stopOnEntry === true);
  assert.ok(config, JSON.stringify(launchJson));
  const expand = (v: unknown): unknown => (typeof v === 'string' ? v.replaceAll('${workspaceFolder}', project) : v);
  const args = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, k === 'env' && v ? Object.fromEntries(Object.entries(v).map(([ek, ev]) => [ek, expand(ev)])) : expand(v)]));
  const dc = new DebugClient(join(packageDir, 'node_modules', 'node', 'bin', 'node'), join(packageDir, 'dist', 'debugAdapter.cjs'), 'controller-lab', { env: runEnv, cwd: project }, true);
  dc.defaultTimeout = 10 * MINUTES;
  await dc.start();
  try {
    const initialized = dc.waitForEvent('initialized');
    const stopped = dc.waitForEvent('stopped');
    await dc.initializeRequest({ adapterID: 'controller-lab', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path', supportsStepBack: true } as DebugProtocol.InitializeRequestArguments);
    const launched = dc.launchRequest(args as DebugProtocol.LaunchRequestArguments);
    await initialized;
    await dc.configurationDoneRequest();
    await launched;
    const stop = (await stopped) as DebugProtocol.StoppedEvent;
    const frames = await dc.stackTraceRequest({ threadId: stop.body.threadId ?? 1 });
    const top = frames.body.stackFrames[0];
    assert.match(top?.name ?? '', /^reconcile Memcached default\/memcached-sample #1 · ADDED rv \d+$/);
    assert.equal(top?.source?.path, join(project, 'internal', 'controller', 'memcached_controller.go'));
    const scopes = await dc.scopesRequest({ frameId: top?.id ?? 0 });
    const objectScope = scopes.body.scopes.find((s) => s.name === 'Object');
    assert.ok(objectScope, scopes.body.scopes.map((s) => s.name).join(', '));
    const object = await dc.variablesRequest({ variablesReference: objectScope.variablesReference });
    assert.equal(object.body.variables.find((v) => v.name === 'kind')?.value, '"Memcached"');
  } finally {
    await dc.disconnectRequest({ terminateDebuggee: true }).catch(() => {});
    await dc.stop();
  }
});
