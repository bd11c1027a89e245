import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { Oracle, renderDiff, varyingExamples } from '../../../../src/check/oracle/index.ts';

// The oracle matches objects across runs as a person would (not by name or uid), sets aside what
// differs between any two runs and what differed between the reference runs, and names the rest.

let uid = 0;
function obj(kind: string, name: string, extra: Partial<KubeObject> & { labels?: Record<string, string>; generateName?: string; owner?: KubeObject } = {}): KubeObject {
  const { labels, generateName, owner, ...rest } = extra;
  return {
    apiVersion: kind === 'Deployment' ? 'apps/v1' : 'v1',
    kind,
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${++uid}`,
      resourceVersion: String(100 + uid),
      creationTimestamp: `2026-11-28T10:00:${String(uid % 60).padStart(2, '0')}Z`,
      ...(labels ? { labels } : {}),
      ...(generateName ? { generateName } : {}),
      ...(owner ? { ownerReferences: [{ apiVersion: owner.apiVersion ?? '', kind: owner.kind ?? '', name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true }] } : {}),
    },
    ...rest,
  };
}

function run(replicas: number, podNames: string[], extra: (objects: KubeObject[]) => void = () => {}): KubeObject[] {
  const owner = obj('Deployment', 'web', { spec: { replicas }, status: { observedGeneration: uid, conditions: [{ type: 'Available', status: 'True', lastTransitionTime: `2026-11-28T10:0${uid % 10}:00Z` }] } });
  const pods = podNames.map((n) => obj('Pod', n, { generateName: 'web-', owner, labels: { app: 'web' }, spec: { nodeName: 'n1' } }));
  const objects = [owner, ...pods, obj('ConfigMap', 'web-config', { data: { mode: 'on' } })];
  extra(objects);
  return objects;
}

test('runs that differ only in uids, resourceVersions, times, generations and generated names are the same end state', () => {
  const oracle = Oracle.learn([run(2, ['web-abc12', 'web-def34']), run(2, ['web-zz981', 'web-qq772'])]);
  assert.deepEqual(oracle.judge(run(2, ['web-x1111', 'web-y2222'])), []);
});

test('a missing generated object, an extra one and a changed field are named with what was expected and what was got', () => {
  const oracle = Oracle.learn([run(2, ['web-abc12', 'web-def34']), run(2, ['web-zz981', 'web-qq772'])]);
  const missing = oracle.judge(run(2, ['web-only1']));
  assert.deepEqual(missing.map((d) => [d.change, d.id]), [['missing', 'Pod default/web-* of apps/Deployment default/web {app=web} #2']]);
  const extra = oracle.judge(run(2, ['web-a', 'web-b', 'web-c']));
  assert.deepEqual(extra.map((d) => [d.change, d.id]), [['extra', 'Pod default/web-* of apps/Deployment default/web {app=web} #3']]);
  const changed = oracle.judge(run(3, ['web-a', 'web-b'], (objects) => ((objects.at(-1) as KubeObject & { data: Record<string, string> }).data.mode = 'off')));
  assert.deepEqual(
    changed.map((d) => (d.change === 'changed' ? [d.id, d.fields.map((f) => [f.path, f.expected, f.got])] : d.change)),
    [
      ['ConfigMap default/web-config', [['.data.mode', 'on', 'off']]],
      ['apps/Deployment default/web', [['.spec.replicas', 2, 3]]],
    ],
  );
  assert.match(renderDiff(changed), /^~ ConfigMap default\/web-config\n {4}\.data\.mode\n {6}- "on"\n {6}\+ "off"$/m);
});

test('a field that differed between the reference runs is not held against a perturbed run; one that did not, is', () => {
  const withRun = (n: number) => run(2, ['web-a1', 'web-b2'], (objects) => ((objects[0] as KubeObject & { status: Record<string, unknown> }).status.lastRun = `run-${n}`));
  const oracle = Oracle.learn([withRun(1), withRun(2)]);
  assert.deepEqual(oracle.judge(withRun(3)), []);
  const stable = Oracle.learn([withRun(1), withRun(1)]);
  assert.deepEqual(stable.judge(withRun(3)).map((d) => d.change === 'changed' && d.fields.map((f) => f.path)), [['.status.lastRun']]);
});

test('lists keyed by name or type compare item by item, so order is no difference', () => {
  const deployment = (containers: string[]) => [obj('Deployment', 'web', { spec: { template: { spec: { containers: containers.map((name) => ({ name, image: `${name}:1` })) } } } })];
  const oracle = Oracle.learn([deployment(['app', 'sidecar'])]);
  assert.deepEqual(oracle.judge(deployment(['sidecar', 'app'])), []);
  const diff = oracle.judge([obj('Deployment', 'web', { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:2' }, { name: 'sidecar', image: 'sidecar:1' }] } } } })]);
  assert.deepEqual(diff.map((d) => d.change === 'changed' && d.fields.map((f) => f.path)), [['.spec.template.spec.containers[name=app].image']]);
});

test('names a controller makes up (a random suffix without generateName) are learned from the references', () => {
  const job = (suffix: string) => [obj('ConfigMap', `backup-${suffix}`, { labels: { job: 'backup' }, data: { ok: 'yes' } })];
  const oracle = Oracle.learn([job('8f3k2'), job('1m9qa')]);
  assert.deepEqual(oracle.judge(job('zzzzz')), []);
  assert.deepEqual(oracle.judge([...job('aaaaa'), ...job('bbbbb')]).map((d) => d.change), ['extra']);
});

test('generated names are compared as the objects they name: the same in both references, other names in a run are no difference', () => {
  const end = (...children: string[]) => {
    const parent = obj('ConfigMap', 'alpha');
    parent.metadata.annotations = { 'example.com/child': children.at(-1)! };
    return [parent, ...children.map((child) => obj('ConfigMap', child, { generateName: 'alpha-', owner: parent }))];
  };
  const oracle = Oracle.learn([end('alpha-abc12'), end('alpha-abc12')]);
  assert.deepEqual(oracle.judge(end('alpha-zz981')), []);
  // A second child, and the parent names it, not the first: both are differences.
  const diffs = oracle.judge(end('alpha-zz981', 'alpha-yy222'));
  assert.deepEqual(diffs.map((d) => [d.change, d.id]), [
    ['changed', 'ConfigMap default/alpha'],
    ['extra', 'ConfigMap default/alpha-* of ConfigMap default/alpha #2'],
  ]);
  assert.equal(diffs[1]!.change === 'extra' && diffs[1]!.got.metadata.name, 'alpha-yy222');
});

test('where the cluster placed a Pod (node, host and Pod IPs) is not state: two Deployments whose Pods interleave otherwise are the same end state', () => {
  const placed = (node: string, ip: string) => (objects: KubeObject[]) => {
    for (const o of objects) if (o.kind === 'Pod') Object.assign(o, { spec: { nodeName: node }, status: { hostIP: `${node}-ip`, hostIPs: [{ ip: `${node}-ip` }], podIP: ip, podIPs: [{ ip }] } });
  };
  const oracle = Oracle.learn([run(1, ['web-abc12'], placed('n1', '10.244.0.2')), run(1, ['web-zz981'], placed('n1', '10.244.0.2'))]);
  assert.deepEqual(oracle.judge(run(1, ['web-x1111'], placed('n2', '10.244.0.7'))), []);
  // A controller's own fields under the same names are still compared.
  const diffs = oracle.judge(
    run(1, ['web-x1111'], (objects) => {
      placed('n1', '10.244.0.2')(objects);
      Object.assign(objects.find((o) => o.kind === 'ConfigMap')!, { spec: { nodeName: 'n2' } });
    }),
  );
  assert.deepEqual(diffs.map((d) => d.id), ['ConfigMap default/web-config']);
});

test("names made from a generated owner's name (a Deployment's ReplicaSet and its Pods) are matched through the owner, not by the random part", () => {
  const chain = (deployment: string, pods: string[], extraDeployment?: string) => {
    const owner = obj('Memcached', 'cache', { spec: { size: pods.length } });
    const out: KubeObject[] = [owner];
    for (const name of [deployment, ...(extraDeployment ? [extraDeployment] : [])]) {
      const d = obj('Deployment', name, { generateName: 'cache-', owner, spec: { replicas: pods.length } });
      const rs = { ...obj('ReplicaSet', `${name}-6b8f766d69`, { owner: d, labels: { 'pod-template-hash': '6b8f766d69' } }), apiVersion: 'apps/v1' };
      out.push(d, rs, ...pods.map((p) => obj('Pod', `${rs.metadata.name}-${p}`, { generateName: `${rs.metadata.name}-`, owner: rs, labels: { 'pod-template-hash': '6b8f766d69' } })));
      Object.assign(d, { status: { conditions: [{ type: 'Progressing', message: `ReplicaSet "${rs.metadata.name}" has successfully progressed.` }] } });
    }
    return out;
  };
  const oracle = Oracle.learn([chain('cache-abc12', ['x1', 'x2']), chain('cache-abc12', ['x1', 'x2'])]);
  assert.deepEqual(oracle.judge(chain('cache-zzq81', ['p9', 'p8'])), [], renderDiff(oracle.judge(chain('cache-zzq81', ['p9', 'p8']))));
  // A second Deployment (and what it brings) is still one too many.
  const extra = oracle.judge(chain('cache-zzq81', ['p9', 'p8'], 'cache-mm2k4'));
  assert.ok(extra.length > 0 && extra.every((d) => d.change === 'extra'), renderDiff(extra));
  assert.ok(extra.some((d) => d.id.startsWith('apps/Deployment default/cache-* of Memcached default/cache') && d.id.endsWith('#2')), renderDiff(extra));
});

test('the endpoints a Service lists, in the order of their Pods’ IPs, are where the Pods were placed, not state', () => {
  const slice = (order: string[]) => (objects: KubeObject[]) => {
    objects.push({
      ...obj('EndpointSlice', 'web-svc'),
      apiVersion: 'discovery.k8s.io/v1',
      endpoints: order.map((pod, i) => ({ addresses: [`10.244.0.${i + 2}`], nodeName: `n${i}`, targetRef: { kind: 'Pod', name: pod }, conditions: { ready: true } })),
    });
  };
  const oracle = Oracle.learn([run(2, ['web-abc12', 'web-def34'], slice(['web-abc12', 'web-def34'])), run(2, ['web-abc12', 'web-def34'], slice(['web-abc12', 'web-def34']))]);
  assert.deepEqual(oracle.judge(run(2, ['web-x1111', 'web-y2222'], slice(['web-y2222', 'web-x1111']))), []);
  // One endpoint fewer is still a difference.
  assert.equal(oracle.judge(run(2, ['web-x1111', 'web-y2222'], slice(['web-y2222']))).length, 1);
});

test('a Service’s allocated cluster IP and node ports are no difference; a headless Service made otherwise is', () => {
  const service = (clusterIP: string, nodePort: number) => (objects: KubeObject[]) => {
    objects.push({ ...obj('Service', 'web'), spec: { clusterIP, clusterIPs: [clusterIP], type: 'NodePort', ports: [{ name: 'http', port: 80, nodePort }] } });
  };
  const oracle = Oracle.learn([run(1, ['web-abc12'], service('10.96.0.10', 30001)), run(1, ['web-zz981'], service('10.96.0.10', 30001))]);
  assert.deepEqual(oracle.judge(run(1, ['web-x1111'], service('10.96.0.11', 30002))), []);
  assert.deepEqual(
    oracle.judge(run(1, ['web-x1111'], service('None', 30001))).flatMap((d) => (d.change === 'changed' ? d.fields.map((f) => f.path) : [])),
    ['.spec.clusterIP', '.spec.clusterIPs[0]'],
  );
});

test('a diff reads with the names the objects had: the run\'s own for what it got, the reference\'s for what was expected', () => {
  const withChild = (child: string) =>
    run(2, ['web-a1', 'web-b2'], (objects) => {
      const config = objects.at(-1) as KubeObject;
      objects.push(obj('ConfigMap', child, { generateName: 'web-child-', owner: config, labels: { role: 'child' } }));
      config.metadata.annotations = { 'example.com/child': child };
    });
  const oracle = Oracle.learn([withChild('web-child-k1'), withChild('web-child-k2')]);
  const perturbed = withChild('web-child-z9');
  (perturbed.at(-2) as KubeObject).metadata.annotations = { 'example.com/child': 'web-child-z8' };
  perturbed.push(obj('ConfigMap', 'web-child-z8', { generateName: 'web-child-', owner: perturbed.at(-2), labels: { role: 'child' } }));
  const diff = renderDiff(oracle.judge(perturbed), oracle.names(perturbed));
  assert.doesNotMatch(diff, /</, diff);
  assert.match(diff, /^\+ ConfigMap default\/web-child-z\d \(not expected\)$/m, diff);
  assert.match(diff, /- "web-child-k1"\n {6}\+ "web-child-z8"/, diff);
});

test("a value that is the uid of an object of the same run (a Job's controller-uid label, selector and Pods) is that object, not a difference; a uid of an object that is gone is one", () => {
  // The Job controller labels a Job's Pods with its uid; a run whose creates interleaved otherwise gave the Job another uid.
  const jobRun = (podName: string, bound?: string): KubeObject[] => {
    const job = obj('Job', 'migrate', { apiVersion: 'batch/v1' });
    const jobUid = job.metadata.uid!;
    job.spec = { selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': jobUid } }, template: { metadata: { labels: { 'controller-uid': jobUid } } } };
    const pod = obj('Pod', podName, { generateName: 'migrate-', owner: job, labels: { 'batch.kubernetes.io/controller-uid': jobUid, 'job-name': 'migrate' } });
    const binding = obj('ConfigMap', 'binding', { data: { boundUID: bound ?? jobUid } });
    return [job, pod, binding];
  };
  const oracle = Oracle.learn([jobRun('migrate-abc12'), jobRun('migrate-def34')]);
  assert.deepEqual(oracle.judge(jobRun('migrate-x1111')), []);
  const stale = oracle.judge(jobRun('migrate-x2222', 'uid-of-a-job-that-is-gone'));
  assert.deepEqual(stale.map((d) => [d.id, d.change === 'changed' && d.fields.map((f) => f.path)]), [['ConfigMap default/binding', ['.data.boundUID']]]);
});

test('a made-up value two objects share in every reference run (a CA in two secrets) must be shared in the judged run, whatever it is', () => {
  const secrets = (ssl: string, internal: string) => [
    obj('Secret', 'db-ssl', { data: { 'ca.crt': ssl, 'tls.crt': `${ssl}-leaf` } }),
    obj('Secret', 'db-ssl-internal', { data: { 'ca.crt': internal, 'tls.crt': `${internal}-peer` } }),
  ];
  const oracle = Oracle.learn([secrets('Y2EtZmlyc3Q0', 'Y2EtZmlyc3Q0'), secrets('Y2Etc2Vjb25k', 'Y2Etc2Vjb25k')]);
  assert.deepEqual(oracle.judge(secrets('Y2EtdGhpcmQx', 'Y2EtdGhpcmQx')), [], 'another CA, the same in both: the same end state');
  const diff = oracle.judge(secrets('Y2EtdGhpcmQx', 'Y2Etb3RoZXIy'));
  assert.equal(diff.length, 1);
  const [d] = diff;
  assert.equal(d?.change, 'changed');
  assert.match(d?.id ?? '', /db-ssl-internal/);
  assert.deepEqual(d?.change === 'changed' ? d.fields.map((f) => [f.path, f.got]) : [], [['.data["ca.crt"]', 'Y2Etb3RoZXIy']]);
  assert.match(renderDiff(diff), /- "Y2EtdGhpcmQx \(as Secret default\/db-ssl \.data\[\\"ca\.crt\\"\]: the same value in every reference run\)"\n\s+\+ "Y2Etb3RoZXIy"/);
});

test('what varies between the reference runs is named, field by field, for the planned line', () => {
  const a = obj('ConfigMap', 'stamped', { data: { stamp: 'one', kept: 'same' } } as Partial<KubeObject>);
  const b = { ...a, metadata: { ...a.metadata }, data: { stamp: 'two', kept: 'same' } } as KubeObject;
  const extra = obj('ConfigMap', 'sometimes');
  const oracle = Oracle.learn([[a, extra], [b]]);
  assert.deepEqual(varyingExamples(oracle.masks, 3), ['ConfigMap default/stamped .data.stamp', 'ConfigMap default/sometimes (in some runs only)']);
});
