// Real kubectl against `controller-lab sim` for what users hit beyond workloads and config: CronJobs,
// RBAC, Ingress, PVCs, PDBs, HPAs, and `kubectl auth can-i` / `auth whoami`. Each test has its own
// namespace (and cluster-scoped names), so they run concurrently.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespace, kubectl, kubectlOk, simForFile, type Json } from './simProcess.ts';

const sim = simForFile();

const namespace = (name: string): Promise<string> => createNamespace(sim, name);

async function getJson(args: string[]): Promise<Json> {
  return JSON.parse(await kubectlOk(sim, [...args, '-o', 'json']));
}

/** A team's access and traffic setup, as one multi-document manifest. */
function teamManifest(ns: string): string {
  return `apiVersion: v1
kind: ServiceAccount
metadata: {name: robot, namespace: ${ns}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "${ns}:reader"}
rules:
- {apiGroups: [""], resources: [configmaps, secrets], verbs: [get, list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "${ns}:reader"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "${ns}:reader"}
subjects:
- {kind: ServiceAccount, name: robot, namespace: ${ns}}
- {kind: User, name: alice}
- {kind: Group, name: devs}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: deployer, namespace: ${ns}}
rules:
- {apiGroups: [apps], resources: [deployments], verbs: ["*"]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: deployer, namespace: ${ns}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: deployer}
subjects:
- {kind: ServiceAccount, name: robot, namespace: ${ns}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: ${ns}}
spec:
  ingressClassName: nginx
  tls: [{hosts: [web.example.com], secretName: web-tls}]
  rules:
  - host: web.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: ${ns}}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: standard
  resources: {requests: {storage: 1Gi}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: ${ns}}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: ${ns}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
`;
}

describe('kubectl and the kinds beyond workloads', { concurrency: true }, () => {
  it('creates a CronJob and lists it with the v1.28 columns; the server filled in its defaults', async () => {
    const ns = await namespace('conf-cron');
    const args = ['-n', ns, 'create', 'cronjob', 'hello', '--image=busybox:1.36', '--schedule=*/5 * * * *'];
    // kubectl 1.32+ sends this create as protobuf (SIM_SERVER_VERSION=v1.32.2), 1.28 as JSON: both land.
    const created = await kubectl(sim, args);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /cronjob.batch\/hello created/);
    const table = await kubectlOk(sim, ['-n', ns, 'get', 'cronjobs']);
    assert.match(table, /^NAME\s+SCHEDULE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE\n/);
    assert.match(table, /^hello\s+\*\/5 \* \* \* \*\s+False\s+0\s+<none>\s+\d+s$/m);
    const wide = await kubectlOk(sim, ['-n', ns, 'get', 'cj', 'hello', '-o', 'wide']);
    assert.match(wide, /^NAME\s+SCHEDULE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\n/);
    assert.match(wide, /\s+hello\s+busybox:1\.36\s+<none>$/m);
    const cj = await getJson(['-n', ns, 'get', 'cronjob', 'hello']);
    assert.deepEqual([cj['spec'].concurrencyPolicy, cj['spec'].suspend, cj['spec'].successfulJobsHistoryLimit, cj['spec'].failedJobsHistoryLimit], ['Allow', false, 3, 1]);
    assert.equal(cj['spec'].jobTemplate.spec.template.spec.restartPolicy, 'OnFailure');
    assert.equal(cj['spec'].jobTemplate.spec.template.spec.dnsPolicy, 'ClusterFirst');
    assert.match(await kubectlOk(sim, ['-n', ns, 'patch', 'cronjob', 'hello', '-p', '{"spec":{"suspend":true}}']), /patched/);
    assert.match(await kubectlOk(sim, ['-n', ns, 'get', 'cronjobs']), /^hello\s+\S+ \S+ \S+ \S+ \S+\s+True\s+/m);
    assert.match(await kubectlOk(sim, ['-n', ns, 'get', 'all']), /^cronjob\.batch\/hello\s+/m);
  });

  it('applies a multi-document manifest of RBAC, Ingress, PVC, PDB and HPA, then prints each kind', async () => {
    const ns = await namespace('conf-team');
    const applied = await kubectlOk(sim, ['apply', '-f', '-'], teamManifest(ns));
    for (const line of [
      'serviceaccount/robot created',
      `clusterrole.rbac.authorization.k8s.io/${ns}:reader created`,
      `clusterrolebinding.rbac.authorization.k8s.io/${ns}:reader created`,
      'role.rbac.authorization.k8s.io/deployer created',
      'rolebinding.rbac.authorization.k8s.io/deployer created',
      'ingress.networking.k8s.io/web created',
      'persistentvolumeclaim/data created',
      'poddisruptionbudget.policy/web created',
      'horizontalpodautoscaler.autoscaling/web created',
    ]) assert.ok(applied.includes(line), `${line} in:\n${applied}`);
    const again = await kubectlOk(sim, ['apply', '-f', '-'], teamManifest(ns));
    assert.doesNotMatch(again, /created/);
    assert.match(again, /role.rbac.authorization.k8s.io\/deployer unchanged/);
    assert.match(again, /ingress.networking.k8s.io\/web unchanged/);

    const binding = await kubectlOk(sim, ['get', 'clusterrolebinding', `${ns}:reader`, '-o', 'wide']);
    assert.match(binding, /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS\n/);
    assert.match(binding, new RegExp(`^${ns}:reader\\s+ClusterRole/${ns}:reader\\s+\\d+s\\s+alice\\s+devs\\s+${ns}/robot$`, 'm'));
    assert.match(await kubectlOk(sim, ['get', 'clusterrole', `${ns}:reader`]), new RegExp(`^NAME\\s+CREATED AT\\n${ns}:reader\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$`, 'm'));
    assert.match(await kubectlOk(sim, ['-n', ns, 'get', 'rolebindings']), /^deployer\s+Role\/deployer\s+\d+s$/m);
    const ingress = await kubectlOk(sim, ['-n', ns, 'get', 'ingress']);
    assert.match(ingress, /^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE\n/);
    assert.match(ingress, /^web\s+nginx\s+web\.example\.com\s+80, 443\s+\d+s$/m);
    const pvc = await kubectlOk(sim, ['-n', ns, 'get', 'pvc']);
    assert.match(pvc, /^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+AGE\n/);
    assert.match(pvc, /^data\s+Pending\s+standard\s+\d+s$/m);
    assert.match(await kubectlOk(sim, ['-n', ns, 'get', 'pdb']), /^web\s+1\s+N\/A\s+0\s+\d+s$/m);
    const hpa = await kubectlOk(sim, ['-n', ns, 'get', 'hpa']);
    assert.match(hpa, /^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE\n/);
    assert.match(hpa, /^web\s+Deployment\/web\s+<unknown>\/60%\s+2\s+5\s+0\s+\d+s$/m);
    // The server's defaults, as a controller reading them back sees them.
    const rb = await getJson(['get', 'clusterrolebinding', `${ns}:reader`]);
    assert.deepEqual(rb['subjects'].map((s: Json) => s['apiGroup']), [undefined, 'rbac.authorization.k8s.io', 'rbac.authorization.k8s.io']);
    assert.equal((await getJson(['-n', ns, 'get', 'pvc', 'data']))['spec'].volumeMode, 'Filesystem');
  });

  it('kubectl autoscale creates an autoscaling/v1 HPA that reads back through v2, and an edit through v1 keeps v2 metrics', async () => {
    const ns = await namespace('conf-autoscale');
    await kubectlOk(sim, ['-n', ns, 'create', 'deployment', 'web', '--image=nginx']);
    assert.match(await kubectlOk(sim, ['-n', ns, 'autoscale', 'deployment', 'web', '--min=2', '--max=6', '--cpu-percent=70']), /horizontalpodautoscaler.autoscaling\/web autoscaled/);
    assert.match(await kubectlOk(sim, ['-n', ns, 'get', 'hpa']), /^web\s+Deployment\/web\s+<unknown>\/70%\s+2\s+6\s+0\s+\d+s$/m);
    const v2 = await getJson(['-n', ns, 'get', 'hpa', 'web']);
    assert.equal(v2['apiVersion'], 'autoscaling/v2');
    assert.deepEqual(v2['spec'].metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);

    const memory = '{"spec":{"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}},{"type":"Resource","resource":{"name":"memory","target":{"type":"AverageValue","averageValue":"1Gi"}}}]}}';
    await kubectlOk(sim, ['-n', ns, 'patch', 'hpa', 'web', '--type=merge', '-p', memory]);
    const v1 = await getJson(['-n', ns, 'get', 'hpa.v1.autoscaling', 'web']);
    assert.equal(v1['apiVersion'], 'autoscaling/v1');
    assert.equal(v1['spec'].targetCPUUtilizationPercentage, 70);
    assert.equal(v1['metadata'].annotations['autoscaling.alpha.kubernetes.io/metrics'], '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"1Gi"}}]');
    await kubectlOk(sim, ['-n', ns, 'patch', 'hpa.v1.autoscaling', 'web', '--type=merge', '-p', '{"spec":{"targetCPUUtilizationPercentage":55}}']);
    const after = await getJson(['-n', ns, 'get', 'hpa', 'web']);
    assert.deepEqual(after['spec'].metrics.map((m: Json) => [m['resource'].name, m['resource'].target.averageUtilization ?? m['resource'].target.averageValue]), [['memory', '1Gi'], ['cpu', 55]]);
  });

  it('kubectl create role / rolebinding / clusterrolebinding (bindings come as protobuf), and a roleRef cannot change', async () => {
    const ns = await namespace('conf-rbac');
    assert.match(await kubectlOk(sim, ['-n', ns, 'create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods']), /role.rbac.authorization.k8s.io\/pod-reader created/);
    assert.match(await kubectlOk(sim, ['-n', ns, 'create', 'rolebinding', 'read-pods', '--role=pod-reader', '--user=alice', `--serviceaccount=${ns}:robot`]), /rolebinding.rbac.authorization.k8s.io\/read-pods created/);
    assert.match(await kubectlOk(sim, ['create', 'clusterrolebinding', `${ns}:view`, '--clusterrole=view', '--group=devs']), /clusterrolebinding.rbac.authorization.k8s.io\/conf-rbac:view created/);
    const role = await getJson(['-n', ns, 'get', 'role', 'pod-reader']);
    assert.deepEqual(role['rules'], [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
    const rb = await getJson(['-n', ns, 'get', 'rolebinding', 'read-pods']);
    assert.deepEqual(rb['roleRef'], { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' });
    assert.deepEqual(rb['subjects'], [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }, { kind: 'ServiceAccount', name: 'robot', namespace: ns }]);
    assert.match(await kubectlOk(sim, ['get', 'clusterrolebinding', `${ns}:view`, '-o', 'wide']), /^conf-rbac:view\s+ClusterRole\/view\s+\d+s\s+devs\s*$/m);
    const changed = await kubectl(sim, ['-n', ns, 'patch', 'rolebinding', 'read-pods', '--type=merge', '-p', '{"roleRef":{"name":"other"}}']);
    assert.notEqual(changed.code, 0);
    assert.match(changed.stderr, /cannot change roleRef/);
  });

  it('kubectl auth can-i answers yes (the token is a cluster admin), for one check and for --list', async () => {
    assert.equal(await kubectlOk(sim, ['auth', 'can-i', 'create', 'pods']), 'yes\n');
    assert.equal(await kubectlOk(sim, ['auth', 'can-i', 'delete', 'clusterrolebindings', '--all-namespaces']), 'yes\n');
    assert.equal(await kubectlOk(sim, ['auth', 'can-i', 'get', '/healthz']), 'yes\n');
    const list = await kubectlOk(sim, ['auth', 'can-i', '--list']);
    assert.match(list, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n/);
    assert.match(list, /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
    assert.match(list, /^\s+\[\*\]\s+\[\]\s+\[\*\]$/m);
  });

  it('kubectl auth whoami names the user the token stands for', async () => {
    const out = await kubectlOk(sim, ['auth', 'whoami']);
    assert.match(out, /^ATTRIBUTE\s+VALUE\nUsername\s+controller-lab\nGroups\s+\[system:masters system:authenticated\]\n$/);
    const json = await getJson(['auth', 'whoami']);
    assert.equal(json['kind'], 'SelfSubjectReview');
    assert.deepEqual(json['status'].userInfo, { username: 'controller-lab', groups: ['system:masters', 'system:authenticated'] });
  });

  it('kubectl api-resources lists the new kinds; reviews are create-only and cannot be listed', async () => {
    const resources = await kubectlOk(sim, ['api-resources']);
    for (const line of [
      /^cronjobs\s+cj\s+batch\/v1\s+true\s+CronJob$/m,
      /^persistentvolumeclaims\s+pvc\s+v1\s+true\s+PersistentVolumeClaim$/m,
      /^persistentvolumes\s+pv\s+v1\s+false\s+PersistentVolume$/m,
      /^ingresses\s+ing\s+networking.k8s.io\/v1\s+true\s+Ingress$/m,
      /^networkpolicies\s+netpol\s+networking.k8s.io\/v1\s+true\s+NetworkPolicy$/m,
      /^poddisruptionbudgets\s+pdb\s+policy\/v1\s+true\s+PodDisruptionBudget$/m,
      /^horizontalpodautoscalers\s+hpa\s+autoscaling\/v2\s+true\s+HorizontalPodAutoscaler$/m,
      /^clusterrolebindings\s+rbac.authorization.k8s.io\/v1\s+false\s+ClusterRoleBinding$/m,
      /^clusterroles\s+rbac.authorization.k8s.io\/v1\s+false\s+ClusterRole$/m,
      /^rolebindings\s+rbac.authorization.k8s.io\/v1\s+true\s+RoleBinding$/m,
      /^roles\s+rbac.authorization.k8s.io\/v1\s+true\s+Role$/m,
      /^selfsubjectreviews\s+authentication.k8s.io\/v1\s+false\s+SelfSubjectReview$/m,
      /^selfsubjectaccessreviews\s+authorization.k8s.io\/v1\s+false\s+SelfSubjectAccessReview$/m,
      /^selfsubjectrulesreviews\s+authorization.k8s.io\/v1\s+false\s+SelfSubjectRulesReview$/m,
    ]) assert.match(resources, line);
    const listable = await kubectlOk(sim, ['api-resources', '--verbs=list', '-o', 'name']);
    assert.ok(listable.includes('cronjobs.batch'));
    assert.ok(!listable.includes('selfsubjectaccessreviews'), 'reviews are create-only');
    const get = await kubectl(sim, ['get', 'selfsubjectaccessreviews']);
    assert.notEqual(get.code, 0);
    assert.match(get.stderr, /MethodNotAllowed/);
  });
});
