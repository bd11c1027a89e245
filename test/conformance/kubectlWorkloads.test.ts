// Real kubectl against `controller-lab sim --workloads`: Deployments roll out (`rollout status`,
// `wait --for=condition=Available`, `get pods -w`), rolling updates complete, Jobs complete, and
// StatefulSets and DaemonSets get their Pods, all on fake Nodes. Each test has its own namespace.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespace, kubectl, kubectlBackground, kubectlOk, startSimProcess, type Json, type SimProcess } from './simProcess.ts';

const sim = {} as SimProcess;
before(async () => void Object.assign(sim, await startSimProcess(['--workloads', '--nodes', '3', '--pod-start-delay', '200ms', '--job-pod-duration', '300ms'])));
after(async () => assert.equal(await sim.stop(), 0, `sim exited uncleanly:\n${sim.output()}`));

async function getJson(args: string[]): Promise<Json> {
  return JSON.parse(await kubectlOk(sim, [...args, '-o', 'json']));
}

describe('workload simulation with kubectl', { concurrency: true }, () => {
  it('prints what runs, and the fake Nodes are Ready', async () => {
    assert.match(sim.output(), /Workloads: controllers, scheduler and 3 fake Nodes/);
    const nodes = await kubectlOk(sim, ['get', 'nodes']);
    assert.match(nodes, /sim-worker-1\s+Ready/);
    assert.match(nodes, /sim-worker-3\s+Ready/);
  });

  it('kubectl create deployment rolls out; rollout status and wait return; a new image rolls out too', async () => {
    const ns = await createNamespace(sim, 'rollout');
    // A Pod of its own first: once the watch prints it, the watch is open before the rollout starts.
    await kubectlOk(sim, ['run', 'sentinel', '--image=busybox', '-n', ns]);
    const watch = kubectlBackground(sim, ['get', 'pods', '-w', '-n', ns]);
    await watch.waitFor((out) => out.includes('sentinel'));
    await kubectlOk(sim, ['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=4', '-n', ns]);
    const status = await kubectl(sim, ['rollout', 'status', 'deployment/web', '-n', ns, '--timeout=60s'], { timeoutMs: 70_000 });
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /deployment "web" successfully rolled out/);
    await kubectlOk(sim, ['wait', '--for=condition=Available', 'deployment/web', '-n', ns, '--timeout=30s']);
    // `get pods -w` saw the Pods go from Pending to Running, as on a real cluster.
    await watch.waitFor((out) => /web-\S+\s+1\/1\s+Running/.test(out) && /Pending/.test(out));
    await watch.stop();

    await kubectlOk(sim, ['set', 'image', 'deployment/web', 'nginx=nginx:1.26', '-n', ns]);
    const again = await kubectl(sim, ['rollout', 'status', 'deployment/web', '-n', ns, '--timeout=60s'], { timeoutMs: 70_000 });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /successfully rolled out/);
    const pods = await getJson(['get', 'pods', '-n', ns]);
    const web = pods.items.filter((p: Json) => p.metadata.name.startsWith('web-'));
    assert.equal(web.length, 4);
    for (const p of web) {
      assert.equal(p.spec.containers[0].image, 'nginx:1.26');
      assert.equal(p.status.phase, 'Running');
    }
    const history = await kubectlOk(sim, ['get', 'rs', '-n', ns]);
    assert.equal(history.trim().split('\n').length, 3, `two ReplicaSets:\n${history}`);
  });

  it('kubectl expose: the Service lists its Pods in endpoints and endpoint slices, and follows a scale-down', async () => {
    const ns = await createNamespace(sim, 'expose');
    await kubectlOk(sim, ['create', 'deployment', 'web', '--image=nginx', '--replicas=3', '--port=8080', '-n', ns]);
    await kubectlOk(sim, ['expose', 'deployment', 'web', '--port=80', '--target-port=8080', '-n', ns]);
    await kubectlOk(sim, ['rollout', 'status', 'deployment/web', '-n', ns, '--timeout=60s']);
    const podIps = async (): Promise<string[]> => (await getJson(['get', 'pods', '-n', ns])).items.filter((p: Json) => !p.metadata.deletionTimestamp).map((p: Json) => `${p.status.podIP}:8080`).sort();
    const listed = async (): Promise<string[]> => {
      const line = (await kubectlOk(sim, ['get', 'endpoints', 'web', '-n', ns, '--no-headers'])).trim().split(/\s+/)[1] ?? '';
      return line.split(',').sort();
    };
    const until = async (what: string, done: () => Promise<boolean>): Promise<void> => {
      for (let i = 0; i < 100 && !(await done()); i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(await done(), what);
    };
    await until('3 endpoints', async () => (await listed()).length === 3);
    assert.deepEqual(await listed(), await podIps());
    assert.match(await kubectlOk(sim, ['describe', 'service', 'web', '-n', ns]), /Endpoints:\s+10\.244\.\d+\.\d+:8080,10\.244/);
    assert.match(await kubectlOk(sim, ['get', 'endpointslices', '-n', ns, '-l', 'kubernetes.io/service-name=web']), /^web-\S+\s+IPv4\s+8080\s+10\.244\.\S+,10\.244\.\S+,10\.244\.\S+\s+\d+s$/m);

    await kubectlOk(sim, ['scale', 'deployment/web', '--replicas=1', '-n', ns]);
    await until('1 endpoint', async () => (await listed()).length === 1);
    await until('the one left', async () => JSON.stringify(await listed()) === JSON.stringify(await podIps()));
  });

  it('kubectl create cronjob starts Jobs on its schedule, and get cronjob shows the last one', async () => {
    const ns = await createNamespace(sim, 'cron');
    await kubectlOk(sim, ['create', 'cronjob', 'tick', '--image=busybox', '--schedule=@every 2s', '-n', ns, '--', 'date']);
    let names: string[] = [];
    for (let i = 0; i < 100 && names.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      names = (await getJson(['get', 'jobs', '-n', ns])).items.map((j: Json) => j.metadata.name);
    }
    assert.match(names[0] ?? '', /^tick-\d{8}$/, 'named by the scheduled minute');
    await kubectlOk(sim, ['wait', '--for=condition=complete', `job/${names[0]}`, '-n', ns, '--timeout=30s']);
    assert.match(await kubectlOk(sim, ['get', 'cronjob', 'tick', '-n', ns]), /^tick\s+@every 2s\s+False\s+\d+\s+\d+s\s+\d+s$/m);
    assert.match(await kubectlOk(sim, ['describe', 'cronjob', 'tick', '-n', ns]), /SuccessfulCreate\s+\S+\s+cronjob-controller\s+Created job tick-/);
  });

  it('kubectl create job completes and kubectl wait --for=condition=complete returns', async () => {
    const ns = await createNamespace(sim, 'jobs');
    await kubectlOk(sim, ['create', 'job', 'once', '--image=busybox', '-n', ns, '--', 'true']);
    await kubectlOk(sim, ['wait', '--for=condition=complete', 'job/once', '-n', ns, '--timeout=30s']);
    const job = await getJson(['get', 'job', 'once', '-n', ns]);
    assert.equal(job.status.succeeded, 1);
    assert.match(await kubectlOk(sim, ['get', 'pods', '-n', ns]), /once-\S+\s+0\/1\s+Completed/);
  });

  it('a StatefulSet and a DaemonSet roll out', async () => {
    const ns = await createNamespace(sim, 'sets');
    await kubectlOk(sim, ['apply', '-n', ns, '-f', '-'], `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  serviceName: db
  selector: {matchLabels: {app: db}}
  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: db, image: postgres:16}]}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template: {metadata: {labels: {app: agent}}, spec: {containers: [{name: agent, image: fluent-bit:3}]}}
`);
    for (const target of ['statefulset/db', 'daemonset/agent']) {
      const r = await kubectl(sim, ['rollout', 'status', target, '-n', ns, '--timeout=60s'], { timeoutMs: 70_000 });
      assert.equal(r.code, 0, `${target}: ${r.stderr}`);
    }
    const pods = (await getJson(['get', 'pods', '-n', ns])).items.map((p: Json) => p.metadata.name).sort();
    assert.deepEqual(pods.filter((n: string) => n.startsWith('db-')), ['db-0', 'db-1']);
    assert.equal(pods.filter((n: string) => n.startsWith('agent-')).length, 3);
  });
});
