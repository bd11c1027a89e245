// Real `kubectl drain` against `controller-lab sim --workloads`: a PodDisruptionBudget's status is
// kept by the disruption controller, so drain evicts as the budget allows, waits while it forbids,
// and finishes once the Deployment's replacements are ready on the other Nodes.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespace, kubectl, kubectlOk, startSimProcess, type Json, type SimProcess } from './simProcess.ts';

const sim = {} as SimProcess;
before(async () => void Object.assign(sim, await startSimProcess(['--workloads', '--nodes', '3', '--pod-start-delay', '300ms'])));
after(async () => assert.equal(await sim.stop(), 0, `sim exited uncleanly:\n${sim.output()}`));

it('kubectl drain evicts within a PodDisruptionBudget and get pdb shows what it allows', async () => {
  const ns = await createNamespace(sim, 'drain');
  await kubectlOk(sim, ['create', 'deployment', 'web', '--image=nginx', '--replicas=4', '-n', ns]);
  await kubectlOk(sim, ['create', 'poddisruptionbudget', 'web', '--selector=app=web', '--min-available=3', '-n', ns]);
  await kubectlOk(sim, ['rollout', 'status', 'deployment/web', '-n', ns, '--timeout=60s']);
  let pdb = '';
  for (let i = 0; i < 50 && !/^web\s+3\s+N\/A\s+1\s+\d+s$/m.test(pdb); i++) {
    await new Promise((r) => setTimeout(r, 100));
    pdb = await kubectlOk(sim, ['get', 'pdb', '-n', ns]);
  }
  assert.match(pdb, /^web\s+3\s+N\/A\s+1\s+\d+s$/m, 'MIN AVAILABLE 3, ALLOWED DISRUPTIONS 1');

  const pods: Json[] = JSON.parse(await kubectlOk(sim, ['get', 'pods', '-n', ns, '-o', 'json'])).items;
  const perNode = new Map<string, number>();
  for (const p of pods) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
  const busiest = [...perNode].sort((a, b) => b[1] - a[1])[0]![0];
  const drain = await kubectl(sim, ['drain', busiest, '--pod-selector=app=web', '--ignore-daemonsets', '--timeout=60s'], { timeoutMs: 70_000 });
  assert.equal(drain.code, 0, drain.stderr);
  assert.match(drain.stdout, /evicting pod/);
  assert.match(drain.stdout, new RegExp(`node/${busiest} drained`));
  const after: Json[] = JSON.parse(await kubectlOk(sim, ['get', 'pods', '-n', ns, '-o', 'json'])).items;
  assert.ok(after.every((p) => p.spec.nodeName !== busiest), 'no Pod left on the drained Node');
  assert.match(await kubectlOk(sim, ['get', 'node', busiest]), /Ready,SchedulingDisabled/);
  await kubectlOk(sim, ['uncordon', busiest]);
});
