// `controller-lab sim` as a user runs it: a scenario at start, `sim fault …` / `sim clients` against
// the running process, a clean SIGTERM, and a restart from --state-dir that keeps objects and keeps
// resourceVersions rising (and the same CA, so earlier kubeconfigs stay trusted).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, kubectlOk, REPO_ROOT, startSimProcess, type SimProcess } from './simProcess.ts';

function simCli(sim: SimProcess, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['src/cli/main.ts', 'sim', ...args, '--kubeconfig', sim.kubeconfigPath], { cwd: REPO_ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const SCENARIO = `seed: 3
objects:
  - apiVersion: v1
    kind: Namespace
    metadata: { name: cli-scenario }
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: from-scenario, namespace: cli-scenario }
    data: { k: v }
`;

it('runs a scenario, takes faults from the CLI, and restarts from its state dir', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'controller-lab-cli-'));
  const scenario = join(dir, 'scenario.yaml');
  await writeFile(scenario, SCENARIO);
  const stateDir = join(dir, 'state');

  const first = await startSimProcess(['--scenario', scenario], stateDir);
  let createdRv: number;
  try {
    assert.equal(first.kubeconfigPath, join(stateDir, 'kubeconfig'));
    assert.match(first.output(), /export KUBECONFIG=/);
    const cm = JSON.parse(await kubectlOk(first, ['-n', 'cli-scenario', 'get', 'configmap', 'from-scenario', '-o', 'json']));
    assert.equal(cm.data.k, 'v');

    const created = JSON.parse(await kubectlOk(first, ['-n', 'cli-scenario', 'create', 'configmap', 'before-restart', '-o', 'json']));
    createdRv = Number(created.metadata.resourceVersion);

    const compact = await simCli(first, ['fault', 'compact']);
    assert.equal(compact.code, 0, compact.stderr);
    assert.equal(JSON.parse(compact.stdout).compactedResourceVersion, String(createdRv));

    const flaky = await simCli(first, ['fault', 'http-faults', '--error-rate', '1', '--error-code', '500']);
    assert.equal(flaky.code, 0, flaky.stderr);
    const refused = await kubectl(first, ['-n', 'cli-scenario', 'get', 'configmaps', '--request-timeout=5s']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /InternalError|injected|500/);
    assert.equal((await simCli(first, ['fault', 'reset'])).code, 0);

    const clients = await simCli(first, ['clients', '-o', 'json']);
    assert.equal(clients.code, 0, clients.stderr);
    // Every kubectl binary is a client of its own (the dispatcher asks /version first, then the
    // kubectl it picked talks); the injected 500 is recorded as an error of one of them.
    const kubectlClients = (JSON.parse(clients.stdout).clients as { userAgent: string; writes: number; errors: number }[]).filter((c) =>
      c.userAgent.startsWith('kubectl'),
    );
    assert.ok(kubectlClients.some((c) => c.writes >= 1), clients.stdout);
    assert.ok(kubectlClients.some((c) => c.errors >= 1), `the injected 500 is recorded: ${clients.stdout}`);

    const unknown = await simCli(first, ['fault', 'no-such-fault']);
    assert.equal(unknown.code, 2);
  } finally {
    assert.equal(await first.stop(), 0, first.output());
  }

  const ca = await readFile(join(stateDir, 'ca.crt'), 'utf8');
  const second = await startSimProcess([], stateDir);
  try {
    assert.equal(second.endpoint.caPem, ca, 'the CA survives restarts');
    const kept = JSON.parse(await kubectlOk(second, ['-n', 'cli-scenario', 'get', 'configmap', 'before-restart', '-o', 'json']));
    assert.equal(Number(kept.metadata.resourceVersion), createdRv);
    const after = JSON.parse(await kubectlOk(second, ['-n', 'cli-scenario', 'create', 'configmap', 'after-restart', '-o', 'json']));
    assert.ok(Number(after.metadata.resourceVersion) > createdRv, 'resourceVersions keep rising across restarts');
  } finally {
    assert.equal(await second.stop(), 0, second.output());
  }
});

it('`npx controller-lab sim`, the README\'s command, runs the built CLI and serves kubectl', async () => {
  const sim = await startSimProcess([], undefined, 'npx');
  try {
    assert.match(sim.output(), /Simulated cluster serving on https:\/\/127\.0\.0\.1:\d+/);
    await kubectlOk(sim, ['create', 'configmap', 'via-npx', '--from-literal=k=v']);
    assert.equal(await kubectlOk(sim, ['get', 'configmap', 'via-npx', '-o', 'jsonpath={.data.k}']), 'v');
  } finally {
    const code = await sim.stop();
    assert.ok(code === 0 || code === null, `exit ${code}: ${sim.output()}`);
  }
});
