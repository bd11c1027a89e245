// Real kubectl against `controller-lab sim` for the API machinery kinds a v1.28 kube-apiserver
// serves besides workloads: ComponentStatuses (made up when asked), VolumeAttachments, API
// Priority and Fairness's FlowSchemas and PriorityLevelConfigurations; and what a foreground
// delete of a namespace shows while it goes. Each test has its own names, so they run concurrently.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectlBackground, kubectlOk, simForFile } from './simProcess.ts';

const sim = simForFile();

/** A table's header and rows, split on runs of spaces. */
function rows(out: string): string[][] {
  return out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
}

describe('kubectl and the API machinery kinds', () => {
  it('get cs prints the components healthy, with the deprecation warning', async () => {
    const r = await kubectl(sim, ['get', 'cs']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Warning: v1 ComponentStatus is deprecated in v1\.19\+/);
    const table = rows(r.stdout);
    assert.deepEqual(table[0], ['NAME', 'STATUS', 'MESSAGE', 'ERROR']);
    assert.deepEqual(table.slice(1).map((row) => row.slice(0, 3)).sort(), [['controller-manager', 'Healthy', 'ok'], ['etcd-0', 'Healthy', 'ok'], ['scheduler', 'Healthy', 'ok']]);
  });

  it('applies a VolumeAttachment, a PriorityLevelConfiguration and a FlowSchema and prints them as kube-apiserver does', async () => {
    const manifest = `apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: csi-kubectl}
spec: {attacher: ebs.csi.aws.com, nodeName: node-1, source: {persistentVolumeName: pv-kubectl}}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: PriorityLevelConfiguration
metadata: {name: kubectl-batch}
spec: {type: Limited, limited: {limitResponse: {type: Queue, queuing: {queues: 16}}}}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata: {name: kubectl-batch}
spec:
  priorityLevelConfiguration: {name: kubectl-batch}
  distinguisherMethod: {type: ByUser}
  rules:
  - subjects: [{kind: Group, group: {name: batch-users}}]
    nonResourceRules: [{verbs: [get], nonResourceURLs: [/healthz]}]
`;
    await kubectlOk(sim, ['apply', '-f', '-'], manifest);
    const va = rows(await kubectlOk(sim, ['get', 'volumeattachment', 'csi-kubectl']));
    assert.deepEqual(va[0], ['NAME', 'ATTACHER', 'PV', 'NODE', 'ATTACHED', 'AGE']);
    assert.deepEqual(va[1]!.slice(0, 5), ['csi-kubectl', 'ebs.csi.aws.com', 'pv-kubectl', 'node-1', 'false']);
    const plc = rows(await kubectlOk(sim, ['get', 'prioritylevelconfiguration', 'kubectl-batch']));
    assert.deepEqual(plc[0], ['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE']);
    assert.deepEqual(plc[1]!.slice(0, 6), ['kubectl-batch', 'Limited', '30', '16', '8', '50']);
    const fs = rows(await kubectlOk(sim, ['get', 'flowschema', 'kubectl-batch']));
    assert.deepEqual(fs[0], ['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
    // MISSINGPL is the Dangling condition kube-apiserver's APF controller sets on every FlowSchema:
    // False, its priority level exists.
    assert.deepEqual([...fs[1]!.slice(0, 4), fs[1]![5]], ['kubectl-batch', 'kubectl-batch', '1000', 'ByUser', 'False']);
    assert.match(await kubectlOk(sim, ['describe', 'flowschema', 'kubectl-batch']), /Matching Precedence:\s+1000/);
  });

  it('apply of a PriorityLevelConfiguration that breaks the rules is refused with the API server\'s words', async () => {
    const r = await kubectl(sim, ['apply', '-f', '-'], { input: 'apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: PriorityLevelConfiguration\nmetadata: {name: kubectl-bad}\nspec: {type: Exempt}\n' });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec\.type: Invalid value: "Exempt": type must be 'Exempt' if and only if name is 'exempt'/);
  });

  it('delete --cascade=foreground of a namespace shows it Terminating behind foregroundDeletion to a watcher, then gone', async () => {
    await kubectlOk(sim, ['create', 'namespace', 'kubectl-fg']);
    const watch = kubectlBackground(sim, ['get', 'namespace', 'kubectl-fg', '--watch', '--output-watch-events', '-o', 'jsonpath={.type} {.object.metadata.finalizers} {.object.status.phase}{"\\n"}']);
    try {
      await watch.waitFor((out) => out.includes('ADDED'));
      await kubectlOk(sim, ['delete', 'namespace', 'kubectl-fg', '--cascade=foreground']);
      const out = await watch.waitFor((o) => o.includes('DELETED'));
      assert.match(out, /MODIFIED \["foregroundDeletion"\] Terminating/);
    } finally {
      await watch.stop();
    }
    assert.notEqual((await kubectl(sim, ['get', 'namespace', 'kubectl-fg'])).code, 0);
  });
});
