import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPacked, MINUTES, run } from './support/packedProduct.ts';

// A kubebuilder project's webhooks under `controller-lab run`, as a cluster with cert-manager gives
// them: the packed product, the scaffold of fixtures/memcached-operator with its webhook filled in
// (a default for spec.foo, a refusal of one value) and `make manifests` run, then two runs side by
// side, each on its own simulated cluster. kubectl's creates go through the program's webhooks:
// refused with the webhook's message, or stored with the default. Then `check`, with the webhooks on.

const FIXTURE = fileURLToPath(new URL('./fixtures/memcached-operator', import.meta.url));
const WEBHOOK = 'internal/webhook/v1alpha1/memcached_webhook.go';

/** What an author writes in kubebuilder's scaffolded webhook. */
function fillInWebhook(project: string): void {
  const file = join(project, WEBHOOK);
  const source = readFileSync(file, 'utf8');
  const filled = source
    .replace('import (\n\t"context"\n', 'import (\n\t"context"\n\t"errors"\n')
    .replace('\t// TODO(user): fill in your defaulting logic.\n', '\tif obj.Spec.Foo == nil {\n\t\tfoo := "from-the-defaulter"\n\t\tobj.Spec.Foo = &foo\n\t}\n')
    .replace('\t// TODO(user): fill in your validation logic upon object creation.\n', '\tif obj.Spec.Foo != nil && *obj.Spec.Foo == "forbidden" {\n\t\treturn nil, errors.New("spec.foo may not be forbidden")\n\t}\n');
  assert.notEqual(filled, source);
  writeFileSync(file, filled);
}

interface Running {
  child: ChildProcess;
  out: () => string;
  ended: Promise<number | null>;
}

function startRun(project: string, env: NodeJS.ProcessEnv): Running {
  const child = spawn('controller-lab', ['run', './cmd', '--sim', '--scenario', 'controller-lab/scenario.yaml', '--timeout', '600'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (out += d));
  const ended = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { child, out: () => out, ended };
}

async function until<T>(what: string, running: Running, find: (out: string) => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find(running.out());
    if (found !== undefined) return found;
    if (running.child.exitCode !== null || Date.now() > deadline) assert.fail(`${what}:\n${running.out()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('a kubebuilder project\'s webhooks under run: two runs side by side, each on its own port; kubectl\'s creates are refused or defaulted by the program; check runs with them', { timeout: 30 * MINUTES }, async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'cl-webhooks-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const { env } = installPacked(work);

  const project = join(work, 'memcached-operator');
  cpSync(FIXTURE, project, { recursive: true });
  fillInWebhook(project);
  const init = await run('controller-lab', ['init', 'go'], { cwd: project, env, timeoutMs: 10 * MINUTES });
  assert.equal(init.code, 0, init.out);
  assert.doesNotMatch(init.out, /ENABLE_WEBHOOKS/, 'the printed commands need no ENABLE_WEBHOOKS=false');
  const manifests = await run('make', ['manifests'], { cwd: project, env, timeoutMs: 10 * MINUTES });
  assert.equal(manifests.code, 0, manifests.out);

  const runs = [startRun(project, env), startRun(project, env)];
  t.after(() => runs.forEach((r) => r.child.kill('SIGKILL')));
  const ports: string[] = [];
  for (const r of runs) {
    const kubeconfig = await until('the run names its kubeconfig', r, (out) => /^simulated cluster at \S+ \(kubeconfig (\S+)\)$/m.exec(out)?.[1], 2 * MINUTES);
    const port = await until('the webhook configurations are installed', r, (out) => /^controller-lab: webhook server on https:\/\/127\.0\.0\.1:(\d+); installed mutating-webhook-configuration, validating-webhook-configuration from \S+\/config\/webhook$/m.exec(out)?.[1], 10 * MINUTES);
    ports.push(port);

    const kubectl = (args: string[], stdin?: string) =>
      new Promise<{ code: number | null; out: string }>((done) => {
        const child = spawn('kubectl', ['--kubeconfig', kubeconfig, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
        child.on('close', (code) => done({ code, out }));
        child.stdin.end(stdin ?? '');
      });
    const memcached = (name: string, spec: string) => `apiVersion: cache.example.com/v1alpha1\nkind: Memcached\nmetadata: { name: ${name}, namespace: default }\nspec: ${spec}\n`;

    const refused = await kubectl(['apply', '-f', '-'], memcached('refused', '{ foo: forbidden }'));
    assert.equal(refused.code, 1, refused.out);
    assert.match(refused.out, /admission webhook "vmemcached-v1alpha1\.kb\.io" denied the request: spec\.foo may not be forbidden/);
    const created = await kubectl(['create', '-f', '-'], memcached('defaulted', '{}'));
    assert.equal(created.code, 0, created.out);
    const foo = await kubectl(['get', 'memcached', 'defaulted', '-n', 'default', '-o', 'jsonpath={.spec.foo}']);
    assert.equal(foo.out, 'from-the-defaulter');
  }
  assert.notEqual(ports[0], ports[1], 'each program serves its webhooks on a port of its own');
  for (const r of runs) {
    r.child.kill('SIGINT');
    assert.equal(await r.ended, 0, r.out());
    assert.match(r.out(), /^#\d+ Memcached default\/defaulted \(ADDED rv \d+\) → ok/m);
  }

  // check runs the program as run does: webhooks served and installed in each run's cluster.
  const checked = await run('controller-lab', ['check', './cmd', '--scenario', 'controller-lab/scenario.yaml'], { cwd: project, env, timeoutMs: 10 * MINUTES });
  assert.equal(checked.code, 0, checked.out);
  assert.match(checked.out, /^check: 0 finding\(s\) in \d+ runs/m, checked.out);
});
