import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ControllerSession } from '../../../src/runtime/controllerSession.ts';
import type { ReconcileRecord } from '../../../src/controllerProtocol/records.ts';
import { launchSim, type LaunchedSim } from '../../../src/runtime/simLauncher.ts';
import { FILES, THROW_LINE, writeController } from './multiFileController.ts';

// The installed extension has no esbuild: the controller host loads the user's own files through
// Node's loader and type stripping. These run that path end to end — real host child process,
// simulated cluster over HTTPS — with `bundler: 'none'` standing in for the missing esbuild.

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

class ControllerRun {
  readonly sim: LaunchedSim;
  readonly records: ReconcileRecord[] = [];
  output = '';
  private failure: string | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(session: ControllerSession, sim: LaunchedSim) {
    this.sim = sim;
    const wake = () => this.waiters.forEach((w) => w());
    session.on('synced', () => sim.startScenario());
    session.on('reconcileEnd', ({ record }) => {
      this.records.push(record);
      wake();
    });
    session.on('output', ({ text }) => (this.output += text));
    session.on('fatal', ({ phase, message }) => {
      this.failure = `${phase}: ${message}`;
      wake();
    });
    session.on('exit', ({ code }) => {
      this.failure ??= `the host exited (code ${code})`;
      wake();
    });
  }

  /** Resolves once `done` holds for the reconciles so far; fails on a fatal error, an exit or a timeout. */
  until(done: (records: ReconcileRecord[]) => boolean, what: string): Promise<void> {
    return this.wait(() => {
      if (done(this.records)) return true;
      if (this.failure) throw new Error(`${what}: ${this.failure}\n${this.output}`);
      return false;
    }, what);
  }

  /** The fatal error the controller failed with. */
  async fatal(): Promise<string> {
    await this.wait(() => this.failure !== undefined, 'a fatal error');
    return this.failure ?? '';
  }

  private wait(check: () => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`timed out waiting for ${what}\n${this.output}`)), 30_000);
      const finish = (err?: unknown) => {
        clearTimeout(timer);
        this.waiters.delete(poll);
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else resolve();
      };
      const poll = () => {
        try {
          if (check()) finish();
        } catch (err) {
          finish(err);
        }
      };
      this.waiters.add(poll);
      poll();
    });
  }
}

async function withController(dir: string, body: (run: ControllerRun) => Promise<void>): Promise<void> {
  const sim = await launchSim({ scenario: join(dir, 'scenario.yaml') });
  const session = new ControllerSession({ file: join(dir, 'controller.ts'), kubeconfig: sim.kubeconfigPath, bundler: 'none', mirrorCache: false, cwd: dir });
  try {
    const run = new ControllerRun(session, sim);
    assert.equal(await session.start(), true);
    await body(run);
  } finally {
    await session.stop();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const failed = (r: ReconcileRecord) => r.outcome?.kind === 'error';

test('without esbuild, a multi-file TypeScript controller runs from its own files and its writes reach the cluster', async () => {
  const dir = writeController();
  await withController(dir, async (run) => {
    await run.until((rs) => rs.some((r) => r.key === 'default/web' && r.outcome?.kind === 'success') && rs.some((r) => r.key === 'default/boom' && failed(r)), 'web reconciled and boom failed');
    const summary = run.sim.cluster.get(CONFIGMAPS, 'default', 'web-summary').object as { data?: Record<string, string>; metadata: { labels?: Record<string, string> } };
    assert.deepEqual(summary.data, { keys: 'color,greeting' }, 'reconcile.ts wrote what it computed');
    assert.deepEqual(summary.metadata.labels, { 'summary-of': 'web' }, 'util.ts (imported as ./util.js) ran');

    const error = run.records.find((r) => r.key === 'default/boom' && failed(r))?.outcome;
    assert.ok(error?.kind === 'error');
    assert.equal(error.error.message, 'cannot summarize boom');
    const throwLine = (FILES['reconcile.ts'] ?? '').split('\n')[THROW_LINE - 1] ?? '';
    const column = throwLine.indexOf('new Error') + 1;
    const where = `${pathToFileURL(join(dir, 'reconcile.ts')).href}:${THROW_LINE}:${column}`;
    assert.ok(error.error.stack?.includes(where), `the stack points at the user's reconcile.ts, line and column (${where}):\n${error.error.stack}`);
  });
});

test('without esbuild, an enum in an imported file is reported with file:line:col and what to write instead', async () => {
  const status = 'export const OK = 1;\n\n  export enum Phase {\n    Pending,\n  }\n';
  const dir = writeController({ 'util.ts': `${FILES['util.ts']}export { Phase } from './status';\n`, 'status.ts': status });
  await withController(dir, async (run) => {
    const message = await run.fatal();
    assert.ok(message.startsWith(`load: ${join(dir, 'status.ts')}:3:3: error: TypeScript enum is not supported`), message);
    assert.match(message, /union of string literals or an `as const` object/);
  });
});

test('without esbuild, a relative import that matches no file names the import, its file and what was tried', async () => {
  const dir = writeController({ 'reconcile.ts': (FILES['reconcile.ts'] ?? '').replace("from './util.js'", "from './utils.js'") });
  await withController(dir, async (run) => {
    const message = await run.fatal();
    assert.equal(message, `load: ${join(dir, 'reconcile.ts')}:3:31: error: cannot find './utils.js' (looked for ./utils.js, ./utils.ts)`);
  });
});
