import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Starts the standalone adapter (run by this same Node 24) and drives the
// initialize → breakpoints → configurationDone → launch sequence the way VS Code does.

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// The bundle VS Code runs (the dap stage builds it first); the TS entry when no build exists.
const BUNDLE = fileURLToPath(new URL('../../dist/debugAdapter.cjs', import.meta.url));
export const ADAPTER = existsSync(BUNDLE) && !process.env.CONTROLLER_LAB_DAP_SOURCE ? BUNDLE : fileURLToPath(new URL('../../src/debug/debugAdapterMain.ts', import.meta.url));
export const RS_CONTROLLER = fileURLToPath(new URL('../../examples/replicaset-controller/controller.ts', import.meta.url));

// Fixtures are written to a temp dir: `node --test test/dap/**` runs every file it finds here.
const FIXTURES = mkdtempSync(join(tmpdir(), 'cl-dap-'));
process.on('exit', () => rmSync(FIXTURES, { recursive: true, force: true }));

/** Two ReplicaSets and nothing else happening: reconcile order depends only on the controller. */
export const RS_SCENARIO = join(FIXTURES, 'replicasets.yaml');
writeFileSync(RS_SCENARIO, `# Two ReplicaSets and nothing else happening: reconcile order depends only on the controller.
seed: 3
objects:
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: { name: api, namespace: default, labels: { app: api } }
    spec:
      replicas: 1
      selector: { matchLabels: { app: api } }
      template: { metadata: { labels: { app: api } }, spec: { containers: [{ name: api, image: "example/api:1.0" }] } }
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: { name: web, namespace: default, labels: { app: web } }
    spec:
      replicas: 3
      selector: { matchLabels: { app: web } }
      template: { metadata: { labels: { app: web } }, spec: { containers: [{ name: web, image: "nginx:1.25" }] } }
`);

/** Fails on purpose: `web` always throws, so the debugger shows the error and the backoff retries. */
export const FAILING_CONTROLLER = join(FIXTURES, 'failingController.ts');
writeFileSync(FAILING_CONTROLLER, `// Fails on purpose: \`web\` always throws, so the debugger shows the error and the backoff retries.
import { defineController } from 'controller-lab';

export default defineController({
  name: 'failing',
  for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  reconcile(req, ctx) {
    ctx.log.info(\`reconciling \${req.name}\`);
    if (req.name === 'web') throw new Error(\`boom: \${req.name} cannot be reconciled\`);
  },
});
`);

export async function startClient(): Promise<DebugClient> {
  const dc = new DebugClient(process.execPath, ADAPTER, 'controller-lab', { env: { ...process.env } }, true);
  dc.defaultTimeout = 20_000;
  await dc.start();
  return dc;
}

export interface LaunchSetup {
  functionBreakpoints?: DebugProtocol.FunctionBreakpoint[];
  exceptionFilters?: string[];
}

export async function launch(dc: DebugClient, args: Record<string, unknown>, setup: LaunchSetup = {}): Promise<void> {
  const initialized = dc.waitForEvent('initialized');
  await dc.initializeRequest({ adapterID: 'controller-lab', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path', supportsStepBack: true } as DebugProtocol.InitializeRequestArguments);
  const launched = dc.launchRequest({ cluster: 'sim', ...args } as DebugProtocol.LaunchRequestArguments);
  await initialized;
  if (setup.functionBreakpoints) await dc.setFunctionBreakpointsRequest({ breakpoints: setup.functionBreakpoints });
  await dc.setExceptionBreakpointsRequest({ filters: setup.exceptionFilters ?? ['reconcileErrors'] });
  await dc.configurationDoneRequest();
  await launched;
}

export async function topFrame(dc: DebugClient, threadId: number): Promise<DebugProtocol.StackFrame> {
  const st = await dc.stackTraceRequest({ threadId });
  const frame = st.body.stackFrames[0];
  if (!frame) throw new Error('no stack frame');
  return frame;
}

export async function scope(dc: DebugClient, frameId: number, name: string): Promise<DebugProtocol.Variable[]> {
  const scopes = await dc.scopesRequest({ frameId });
  const s = scopes.body.scopes.find((x) => x.name === name);
  if (!s) throw new Error(`no scope ${name} (have ${scopes.body.scopes.map((x) => x.name).join(', ')})`);
  return (await dc.variablesRequest({ variablesReference: s.variablesReference })).body.variables;
}

export async function expand(dc: DebugClient, vars: DebugProtocol.Variable[], name: string): Promise<DebugProtocol.Variable[]> {
  const v = vars.find((x) => x.name === name);
  if (!v) throw new Error(`no variable ${name} (have ${vars.map((x) => x.name).join(', ')})`);
  return (await dc.variablesRequest({ variablesReference: v.variablesReference })).body.variables;
}

export function valueOf(vars: DebugProtocol.Variable[], name: string): string | undefined {
  return vars.find((x) => x.name === name)?.value;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A line typed in the Debug Console; its answer. */
export async function ask(dc: DebugClient, line: string): Promise<string> {
  return (await dc.evaluateRequest({ expression: line, context: 'repl' })).body.result;
}

/** Asks until the answer matches `pattern` (what a scenario's step causes comes later), for at most 90 s; the last answer. */
export async function askUntil(dc: DebugClient, line: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const text = await ask(dc, line);
    if (pattern.test(text) || Date.now() > deadline) return text;
    await new Promise((r) => setTimeout(r, 250));
  }
}
