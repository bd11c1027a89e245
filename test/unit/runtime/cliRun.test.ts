import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// `controller-lab run` as a user runs it: a child Node 24 on the CLI's TS entry, against --sim.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'src/cli/main.ts');

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, 'run', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'cl-run-'));
}

interface TraceLine {
  seq: number;
  key: string;
  trigger: { type: string; kind: string; key: string; resourceVersion: string; via: string }[];
  cacheResourceVersion: string;
  writes: { verb: string; kind: string; name: string; resourceVersion?: string; error?: { code?: number } }[];
  error?: { message: string; timedOut?: boolean };
  requeue: { action: string };
  durationMs: number;
}

test('run --sim --scenario --until-idle --trace converges the replicaset example and traces every reconcile', () => {
  const dir = tempDir();
  try {
    const trace = join(dir, 'trace.jsonl');
    const r = run(['examples/replicaset-controller/controller.ts', '--sim', '--scenario', 'examples/replicaset-controller/scenario.yaml', '--until-idle', '--trace', trace, '--timeout', '40']);
    assert.equal(r.code, 0, r.stderr);
    const lines = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TraceLine);
    assert.ok(lines.length >= 4);
    assert.deepEqual(lines.map((l) => l.seq), lines.map((_, i) => i + 1));
    const creates = lines.flatMap((l) => l.writes.filter((w) => w.verb === 'create' && !w.error).map((w) => w.name));
    for (const pod of ['web-0', 'web-1', 'web-2', 'api-0', 'api-1']) assert.ok(creates.includes(pod), `created ${pod}`);
    // the scenario deleted web-1 by hand: the owner's reconcile saw that delete as its trigger
    assert.ok(lines.some((l) => l.key === 'default/web' && l.trigger.some((t) => t.type === 'DELETED' && t.key === 'default/web-1' && t.via === 'owns')));
    // causal links: every successful write has the RV it produced; triggers carry event RVs
    for (const l of lines) {
      for (const w of l.writes) assert.ok(w.error || /^\d+$/.test(w.resourceVersion ?? ''), JSON.stringify(w));
      for (const t of l.trigger) if (t.via !== 'requeue') assert.match(t.resourceVersion, /^\d+$/);
      assert.equal(typeof l.durationMs, 'number');
    }
    // scaled down to 1 at the end: the last pods were deleted
    const deletes = lines.flatMap((l) => l.writes.filter((w) => w.verb === 'delete').map((w) => w.name));
    assert.ok(deletes.includes('web-2'), `deleted: ${deletes.join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing file, a syntax error and a module without a controller each get a clear message', () => {
  const dir = tempDir();
  try {
    const missing = run([join(dir, 'nope.ts'), '--sim', '--until-idle']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /controller file not found: .*nope\.ts/);

    const broken = join(dir, 'broken.ts');
    writeFileSync(broken, 'export default {\n  name: "x",\n  reconcile( {\n};\n');
    const syntax = run([broken, '--sim', '--until-idle']);
    assert.equal(syntax.code, 1);
    assert.match(syntax.stderr, /broken\.ts:\d+:\d+: error: /);

    const empty = join(dir, 'empty.ts');
    writeFileSync(empty, 'export const x = 1;\n');
    const none = run([empty, '--sim', '--until-idle', '--timeout', '20']);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /exports no controller: add `export default defineController/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a reconcile that hangs is reported after the timeout and retried with backoff', () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'hang.ts');
    writeFileSync(
      file,
      `import { defineController } from 'controller-lab';
let calls = 0;
export default defineController({
  name: 'hang',
  for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  reconcile(req) {
    if (req.name === 'web' && calls++ === 0) return new Promise(() => {});
  },
});
`,
    );
    const trace = join(dir, 't.jsonl');
    const r = run([file, '--sim', '--scenario', 'examples/replicaset-controller/scenario.yaml', '--until-idle', '--reconcile-timeout', '200', '--trace', trace, '--timeout', '30']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ReplicaSet default\/web .*timed out: reconcile did not finish within 200 ms/);
    const web = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TraceLine).filter((l) => l.key === 'default/web');
    assert.equal(web[0]?.error?.timedOut, true);
    assert.equal(web[0]?.requeue.action, 'addRateLimited');
    assert.equal(web[1]?.trigger[0]?.type, 'REQUEUE');
    assert.equal(web[1]?.error, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--until-idle ends when the only keys left wait on a periodic requeueAfter that wrote nothing', () => {
  const dir = tempDir();
  try {
    const controller = join(dir, 'periodic.ts');
    writeFileSync(controller, [
      "import { defineController } from 'controller-lab';",
      'export default defineController({',
      "  name: 'periodic', for: { apiVersion: 'v1', kind: 'ConfigMap' },",
      '  async reconcile(req, ctx) {',
      "    if (req.name !== 'settings') return;",
      "    const cm = ctx.get('ConfigMap', req.namespace, req.name);",
      '    if (!cm) return;',
      "    if (cm.metadata.labels?.seen !== 'yes') await ctx.client.update({ ...cm, metadata: { ...cm.metadata, labels: { seen: 'yes' } } });",
      '    return { requeueAfter: 30_000 };',
      '  },',
      '});',
      '',
    ].join('\n'));
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, 'objects:\n  - { apiVersion: v1, kind: ConfigMap, metadata: { name: settings, namespace: default } }\n');
    const started = Date.now();
    const r = run([controller, '--sim', '--scenario', scenario, '--until-idle', '--timeout', '25']);
    assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
    assert.ok(Date.now() - started < 20_000, 'ended before its 30 s requeue came round');
    // The write's own watch event was reconciled (it wrote nothing more) before the run ended.
    assert.match(r.stdout, /update ConfigMap default\/settings → rv \d+/);
    assert.match(r.stdout, /ConfigMap default\/settings \(MODIFIED rv \d+\) → ok, requeue after 30000 ms/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
