// `kubectl apply --server-side` against the simulated cluster over HTTPS: field ownership as
// kubectl users see it — a field dropped from the manifest is removed, two managers setting one
// field conflict (409, printed as kubectl prints it), --force-conflicts takes the field over, and
// `kubectl get --show-managed-fields` shows the entries the API server would write.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';

let cluster: SimCluster;
let server: SimServerHandle;

before(async () => {
  cluster = createSimCluster();
  server = await startSimServer(cluster);
});

after(async () => {
  await server.stop();
  await cluster.close();
});

/** kubectl as a child process (asynchronously: the server answers from this process). */
function kubectl(args: string[], input = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', args, { timeout: 30_000, env: { ...process.env, KUBECONFIG: server.kubeconfigPath } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}

async function applyOk(manifest: string, ...flags: string[]): Promise<void> {
  const r = await kubectl(['apply', '--server-side', ...flags, '-f', '-'], manifest);
  assert.equal(r.code, 0, r.stderr);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- kubectl's JSON, read field by field
async function getJson(what: string, ...flags: string[]): Promise<Record<string, any>> {
  const r = await kubectl(['get', what, '-o', 'json', ...flags]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const configMap = (name: string, data: Record<string, string>): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n${Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`).join('\n')}\n`;

describe('kubectl apply --server-side', async () => {
  it('a key dropped from the manifest is removed by the next apply; a key another manager set stays', async () => {
    await applyOk(configMap('pruned', { keep: '1', drop: '2' }));
    assert.deepEqual((await getJson('configmap/pruned')).data, { keep: '1', drop: '2' });
    const patched = await kubectl(['patch', 'configmap/pruned', '--type=merge', '-p', '{"data":{"theirs":"3"}}']);
    assert.equal(patched.code, 0, patched.stderr);
    await applyOk(configMap('pruned', { keep: '1' }));
    assert.deepEqual((await getJson('configmap/pruned')).data, { keep: '1', theirs: '3' });
  });

  it('two managers setting one field conflict; kubectl prints the API server message; --force-conflicts takes it over', async () => {
    await applyOk(configMap('contested', { replicas: '1' }), '--field-manager=a');
    const refused = await kubectl(['apply', '--server-side', '--field-manager=b', '-f', '-'], configMap('contested', { replicas: '2' }));
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Apply failed with 1 conflict: conflict with "a": \.data\.replicas/);
    assert.equal((await getJson('configmap/contested')).data.replicas, '1', 'nothing changed');

    await applyOk(configMap('contested', { replicas: '2' }), '--field-manager=b', '--force-conflicts');
    const cm = (await getJson('configmap/contested', '--show-managed-fields'));
    assert.equal(cm.data.replicas, '2');
    const managers = cm.metadata.managedFields.map((e: { manager: string }) => e.manager);
    assert.deepEqual(managers, ['b'], 'a lost its only field, so its entry is gone');
  });

  it('moving from client-side `kubectl apply` to --server-side takes over what kubectl applied, without a conflict', async () => {
    const first = await kubectl(['apply', '-f', '-'], configMap('moved', { k: '10', kept: 'x' }));
    assert.equal(first.code, 0, first.stderr);
    // kube-apiserver overlooks conflicts with kubectl-client-side-apply on fields the annotation
    // still agrees with, for the manager `kubectl` only, and rewrites the annotation to the new configuration.
    await applyOk(configMap('moved', { k: '1', kept: 'x' }));
    const cm = await getJson('configmap/moved');
    assert.equal(cm.data.k, '1');
    assert.equal(cm.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'],
      '{"apiVersion":"v1","data":{"k":"1","kept":"x"},"kind":"ConfigMap","metadata":{"name":"moved","namespace":"default"}}\n');
    // kubectl then hands the annotation to `kubectl-last-applied`, which changed nothing and so has no time.
    const managers = (await getJson('configmap/moved', '--show-managed-fields')).metadata.managedFields;
    assert.deepEqual(managers.map((e: { manager: string; time?: string }) => [e.manager, e.time !== undefined]), [['kubectl-last-applied', false], ['kubectl', true]]);

    // Another field manager gets no such allowance; nor does a field edited since the last client-side apply.
    const other = await kubectl(['apply', '-f', '-'], configMap('moved-too', { k: '10' }));
    assert.equal(other.code, 0, other.stderr);
    const refused = await kubectl(['apply', '--server-side', '--field-manager=mine', '-f', '-'], configMap('moved-too', { k: '1' }));
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /conflict with "kubectl-client-side-apply" using v1: \.data\.k/);
    const edited = await kubectl(['patch', 'configmap/moved-too', '--type=merge', '-p', '{"data":{"k":"11"}}', '--field-manager=kubectl-client-side-apply']);
    assert.equal(edited.code, 0, edited.stderr);
    const stillRefused = await kubectl(['apply', '--server-side', '-f', '-'], configMap('moved-too', { k: '1' }));
    assert.notEqual(stillRefused.code, 0);
    assert.match(stillRefused.stderr, /conflict with "kubectl-client-side-apply" using v1: \.data\.k/);
  });

  it('managedFields as `kubectl get --show-managed-fields` shows them, and hidden without the flag', async () => {
    await applyOk([
      'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', '  namespace: default', '  labels: {app: web}',
      'spec:', '  replicas: 2', '  selector: {matchLabels: {app: web}}', '  template:', '    metadata: {labels: {app: web}}',
      '    spec:', '      containers:', '      - name: nginx', '        image: nginx:1.27', '        ports: [{containerPort: 80}]', '',
    ].join('\n'));
    assert.equal((await getJson('deployment/web')).metadata.managedFields, undefined, 'kubectl hides them by default');
    const entries = (await getJson('deployment/web', '--show-managed-fields')).metadata.managedFields;
    assert.equal(entries.length, 1);
    const [entry] = entries;
    assert.equal(entry.manager, 'kubectl');
    assert.equal(entry.operation, 'Apply');
    assert.equal(entry.apiVersion, 'apps/v1');
    assert.equal(entry.fieldsType, 'FieldsV1');
    assert.match(entry.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(entry.fieldsV1, {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"nginx"}': {
                '.': {},
                'f:image': {},
                'f:name': {},
                'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
              },
            },
          },
        },
      },
    });

    const scaled = await kubectl(['scale', 'deployment/web', '--replicas=3']);
    assert.equal(scaled.code, 0, scaled.stderr);
    const after = (await getJson('deployment/web', '--show-managed-fields')).metadata.managedFields;
    const scale = after.find((e: { subresource?: string }) => e.subresource === 'scale');
    assert.deepEqual(scale && { manager: scale.manager, operation: scale.operation, fieldsV1: scale.fieldsV1 }, { manager: 'kubectl', operation: 'Update', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    assert.equal(scale.time, undefined, 'kube-apiserver\'s /scale handler gives the entry no time');
    const applied = after.find((e: { operation: string }) => e.operation === 'Apply');
    assert.equal(applied.fieldsV1['f:spec']['f:replicas'], undefined, 'the applier lost replicas to the scale');
  });
});
