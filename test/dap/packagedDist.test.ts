import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { ROOT, launch } from './dapClient.ts';
import { writeController } from '../unit/runtime/multiFileController.ts';

// The .vsix ships dist/ and no node_modules. Here dist/ is copied outside the repo, so neither the
// adapter nor the controller host can find esbuild: the multi-file TypeScript controller is loaded
// by the bundled host's type-stripping hooks, and a line breakpoint set in the user's .ts file
// (what VS Code's JavaScript debugger does) stops on that line.

/** A line of reconcile.ts that every reconcile runs: `const cm = ctx.get<ConfigMap>(…)`. */
const BREAKPOINT_LINE = 7;

interface Paused {
  callFrames: { functionName: string; location: { scriptId: string; lineNumber: number } }[];
}

test('the packaged adapter and host, without esbuild, run a multi-file TypeScript controller and stop on its lines', async () => {
  const bundle = join(ROOT, 'dist');
  assert.ok(existsSync(join(bundle, 'debugAdapter.cjs')), 'dist/ is built (npm run build; the dap stage builds it)');
  const installed = mkdtempSync(join(tmpdir(), 'cl-installed-'));
  cpSync(bundle, join(installed, 'dist'), { recursive: true });
  const dir = writeController();
  const dc = new DebugClient(process.execPath, join(installed, 'dist', 'debugAdapter.cjs'), 'controller-lab', { cwd: installed }, true);
  dc.defaultTimeout = 20_000;
  await dc.start();
  try {
    const entry = dc.waitForEvent('stopped');
    await launch(dc, { controller: join(dir, 'controller.ts'), scenario: join(dir, 'scenario.yaml'), stopOnEntry: true });
    await entry;
    const attach = dc.waitForEvent('controllerLab.attachJsDebugger');
    await dc.stepInRequest({ threadId: 1 });
    const { body } = (await attach) as DebugProtocol.Event & { body: { url: string } };

    const ws = new WebSocket(body.url);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    const pauses: Paused[] = [];
    const scriptUrls = new Map<string, string>();
    let wake = () => {};
    ws.onmessage = (m) => {
      const msg = JSON.parse(String(m.data)) as { method?: string; params?: Paused & { scriptId: string; url: string } };
      if (msg.method === 'Debugger.scriptParsed' && msg.params) scriptUrls.set(msg.params.scriptId, msg.params.url);
      if (msg.method === 'Debugger.paused' && msg.params) {
        pauses.push(msg.params);
        wake();
      }
    };
    const nextPause = async (): Promise<Paused> => {
      while (pauses.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return pauses.shift() as Paused;
    };
    let id = 0;
    const send = (method: string, params: object = {}) => ws.send(JSON.stringify({ id: ++id, method, params }));
    const reconcileUrl = pathToFileURL(join(dir, 'reconcile.ts')).href;
    send('Debugger.enable');
    send('Debugger.setBreakpointByUrl', { url: reconcileUrl, lineNumber: BREAKPOINT_LINE - 1 });
    send('Runtime.runIfWaitingForDebugger');
    assert.equal((await nextPause()).callFrames[0]?.functionName, 'call', 'paused just before the user reconcile');
    send('Debugger.resume');
    const atLine = (await nextPause()).callFrames[0];
    const script = scriptUrls.get(atLine?.location.scriptId ?? '');
    assert.deepEqual({ script, line: (atLine?.location.lineNumber ?? -1) + 1 }, { script: reconcileUrl, line: BREAKPOINT_LINE });
    assert.equal(atLine?.functionName, 'reconcileConfigMap');
    // Closing detaches the debugger: its breakpoints go and the host runs on.
    ws.close();
  } finally {
    await dc.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(installed, { recursive: true, force: true });
  }
});
