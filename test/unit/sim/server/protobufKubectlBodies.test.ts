// Bodies kubectl 1.32 really sent (fixtures/kubectl132Bodies.ts), decoded with the generated schemas,
// and one created next to the JSON kubectl 1.28 sends for the same command: the two stored objects
// must be the same.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeKubernetesProtobuf } from '../../../../src/sim/server/protobuf/decodeK8sProtobuf.ts';
import { CRONJOB_HELLO2, DEPLOYMENT_WEB2, DEPLOYMENT_WEB3, JOB_ONCE2, SERVICE_MY_SVC } from './fixtures/kubectl132Bodies.ts';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

describe('kubectl 1.32 protobuf bodies', () => {
  it('create deployment: name, labels, replicas, selector, image and container port', () => {
    const d = decodeKubernetesProtobuf(DEPLOYMENT_WEB2);
    assert.deepEqual(d, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web2', labels: { app: 'web2' } },
      spec: {
        replicas: 3, selector: { matchLabels: { app: 'web2' } }, strategy: {},
        // A nested zero creationTimestamp is null, as in kubectl 1.28's JSON for the same command.
        template: { metadata: { creationTimestamp: null, labels: { app: 'web2' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 8080 }], resources: {} }] } },
      },
      status: {},
    });
  });

  it('create cronjob and job: schedule, job template, command, restart policy', () => {
    const cj = decodeKubernetesProtobuf(CRONJOB_HELLO2) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(cj.spec.schedule, '*/5 * * * *');
    assert.deepEqual(cj.spec.jobTemplate.metadata, { name: 'hello2', creationTimestamp: null });
    assert.deepEqual(cj.spec.jobTemplate.spec.template.spec, { containers: [{ name: 'hello2', image: 'busybox:1.36', command: ['echo', 'hi'], resources: {} }], restartPolicy: 'OnFailure' });
    const job = decodeKubernetesProtobuf(JOB_ONCE2) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.deepEqual(job.spec, { template: { metadata: { creationTimestamp: null }, spec: { containers: [{ name: 'once2', image: 'busybox:1.36', command: ['date'], resources: {} }], restartPolicy: 'Never' } } });
  });

  it('create service clusterip: ports with number and named target ports (IntOrString), selector, type', () => {
    const svc = decodeKubernetesProtobuf(SERVICE_MY_SVC);
    assert.deepEqual(svc['spec'], {
      ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }, { name: '443-https', protocol: 'TCP', port: 443, targetPort: 'https' }],
      selector: { app: 'my-svc' },
      type: 'ClusterIP',
    });
    assert.deepEqual(svc['status'], { loadBalancer: {} });
  });
});

describe('protobuf and JSON make the same stored object', () => {
  const sim = suiteServer();

  /** What differs between any two creates: identity, time, version, and the namespace we chose. */
  function comparable(object: Record<string, any>): Record<string, unknown> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const { uid: _uid, creationTimestamp: _created, resourceVersion: _rv, managedFields: _mf, namespace: _ns, ...metadata } = object['metadata'];
    return { ...object, metadata };
  }

  it('kubectl create deployment web3 --image=nginx: 1.32 protobuf vs 1.28 JSON', async () => {
    for (const ns of ['from-protobuf', 'from-json']) assert.equal((await call(sim.server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
    const viaProtobuf = await call(sim.server, 'POST', '/apis/apps/v1/namespaces/from-protobuf/deployments', { body: DEPLOYMENT_WEB3, contentType: PROTOBUF });
    assert.equal(viaProtobuf.status, 201, viaProtobuf.body);
    // kubectl 1.28's body for the same command (captured with -v=9), the name made web3.
    const json = {
      kind: 'Deployment', apiVersion: 'apps/v1', metadata: { name: 'web3', creationTimestamp: null, labels: { app: 'web3' } },
      spec: {
        replicas: 1, selector: { matchLabels: { app: 'web3' } },
        template: { metadata: { creationTimestamp: null, labels: { app: 'web3' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] } },
        strategy: {},
      },
      status: {},
    };
    const viaJson = await call(sim.server, 'POST', '/apis/apps/v1/namespaces/from-json/deployments', { body: json });
    assert.equal(viaJson.status, 201, viaJson.body);
    const stored = async (ns: string) => comparable((await call(sim.server, 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/web3`)).json());
    const fromProtobuf = await stored('from-protobuf');
    const fromJson = await stored('from-json');
    assert.deepEqual(fromProtobuf, fromJson);
    // Field by field too, so a difference names its path.
    const walk = (a: unknown, b: unknown, path: string): void => {
      if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
        for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`);
      } else assert.deepEqual(a, b, path);
    };
    walk(fromProtobuf, fromJson, '');
    assert.equal((fromProtobuf as any).spec.template.spec.containers[0].image, 'nginx'); // eslint-disable-line @typescript-eslint/no-explicit-any
  });
});
