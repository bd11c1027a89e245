import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { SimCluster } from '../../../../src/sim/simCluster.ts';
import { ScenarioError } from '../../../../src/sim/scenario/scenarioError.ts';
import { readScenarioFile, ScenarioFileNotFound } from '../../../../src/sim/scenario/scenarioFile.ts';
import { checkScenario } from '../../../../src/sim/scenario/scenarioRunner.ts';
import { launchSim } from '../../../../src/runtime/simLauncher.ts';

// A scenario's `include:` reads a project's own YAML (kubebuilder's config/ folders) from disk.

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const MEMCACHEDS = { group: 'cache.example.com', version: 'v1alpha1', resource: 'memcacheds' };

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: memcacheds.cache.example.com
spec:
  group: cache.example.com
  names: { kind: Memcached, listKind: MemcachedList, plural: memcacheds, singular: memcached }
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: true
    subresources: { status: {} }
    schema:
      openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true }
`;

const SAMPLE = `apiVersion: cache.example.com/v1alpha1
kind: Memcached
metadata:
  name: memcached-sample
spec:
  size: 1
`;

/** A project folder with these files (path → text); removed when the test ends. */
function project(t: { after(fn: () => void): void }, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'scenario-includes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function cluster(): SimCluster {
  return new SimCluster({ clock: new FakeClock(), seed: 0 });
}

function load(c: SimCluster, dir: string, text: string) {
  return c.loadScenario(text, { fileName: 'controller-lab/scenario.yaml', baseDir: join(dir, 'controller-lab') });
}

function problemsOf(fn: () => unknown): ScenarioError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ScenarioError) return err;
    throw err;
  }
  assert.fail('expected a ScenarioError');
}

test('a file is a YAML stream: every document in it, before the scenario\'s own objects', (t) => {
  const dir = project(t, {
    'config/all.yaml': `${CRD}---\n${SAMPLE}---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings, namespace: default }\ndata: { mode: included }\n`,
  });
  const c = cluster();
  const run = load(c, dir, 'seed: 1\ninclude: [../config/all.yaml]\nobjects:\n  - { apiVersion: v1, kind: ConfigMap, metadata: { name: own, namespace: default } }\n');
  assert.deepEqual(run.scenario.objects.map((o) => o.object.metadata.name), ['memcacheds.cache.example.com', 'memcached-sample', 'settings', 'own']);
  assert.deepEqual(run.scenario.objects.map((o) => o.file), ['config/all.yaml', 'config/all.yaml', 'config/all.yaml', undefined]);
  assert.deepEqual(run.scenario.objects.map((o) => o.line), [1, 17, 24, 4]);
  assert.equal(c.get(MEMCACHEDS, 'default', 'memcached-sample').object.metadata.name, 'memcached-sample');
  assert.deepEqual(c.get(CM, 'default', 'settings').object.data, { mode: 'included' });
});

test('a folder is its *.yaml and *.yml files by name, not its subfolders or other files', (t) => {
  const dir = project(t, {
    'config/crd/bases/cache.example.com_memcacheds.yaml': CRD,
    'config/extra/b.yml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: b, namespace: default }\n',
    'config/extra/a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: a, namespace: default }\n',
    'config/extra/notes.txt': 'not YAML: { [',
    'config/extra/nested/c.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c, namespace: default }\n',
  });
  const run = load(cluster(), dir, 'include: [../config/crd/bases, ../config/extra]\n');
  assert.deepEqual(run.scenario.objects.map((o) => o.object.metadata.name), ['memcacheds.cache.example.com', 'a', 'b']);
});

test('a kustomize folder is read through its resources (files and folders, recursively); its transformers are not applied', (t) => {
  const dir = project(t, {
    'config/rbac/kustomization.yaml': 'namePrefix: memcached-operator-\nnamespace: memcached-operator-system\nresources:\n# the manager\'s account\n- service_account.yaml\n- role.yaml\n- ../more\n',
    'config/rbac/service_account.yaml': 'apiVersion: v1\nkind: ServiceAccount\nmetadata: { name: controller-manager, namespace: system }\n',
    'config/rbac/role.yaml': 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: { name: manager-role }\nrules: []\n',
    'config/rbac/unlisted.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: unlisted, namespace: default }\n',
    'config/more/Kustomization': 'resources: [cm.yaml]\n',
    'config/more/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: from-more, namespace: default }\n',
    'config/more/ignored.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ignored, namespace: default }\n',
  });
  const run = load(cluster(), dir, 'include: [../config/rbac]\n');
  assert.deepEqual(run.scenario.objects.map((o) => `${o.object.metadata.namespace ?? ''}/${o.object.metadata.name}`), ['system/controller-manager', '/manager-role', 'default/from-more']);
  assert.deepEqual(run.scenario.objects.map((o) => o.file), ['config/rbac/service_account.yaml', 'config/rbac/role.yaml', 'config/more/cm.yaml']);
});

test('documents that are not Kubernetes objects are skipped: empty ones, ones without apiVersion or kind, a Kustomization', (t) => {
  const dir = project(t, {
    'config/samples/kustomization.yml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [all.yaml]\n',
    'config/samples/all.yaml': `---\n# only a comment\n---\nnamePrefix: x-\n---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n---\n${SAMPLE}`,
    'config/crd.yaml': CRD,
  });
  const run = load(cluster(), dir, 'include: [../config/crd.yaml, ../config/samples/kustomization.yml]\n');
  assert.deepEqual(run.scenario.objects.map((o) => o.object.kind), ['CustomResourceDefinition', 'Memcached']);
});

test('every problem is reported in one pass, with the file and line it is in, included files too', (t) => {
  const dir = project(t, {
    'config/samples/bad.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { namespace: default }\n---\napiVersion: example.com/v1\nkind: Gizmo\nmetadata: { name: g }\n',
    'config/samples/broken.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x\n',
    'config/rbac/kustomization.yaml': 'resources:\n- role.yaml\n- https://example.com/remote.yaml\n',
  });
  const c = cluster();
  const rv = c.resourceVersion;
  const e = problemsOf(() => load(c, dir, 'seed: 1\ninclude:\n  - ../config/samples\n  - ../config/missing\n  - ../config/rbac\n  - 7\nobjects:\n  - { apiVersion: v1, kind: Widget, metadata: { name: w } }\nsteps:\n  - at: soon\n    compact: now\n'));
  const lines = e.message.split('\n');
  assert.ok(lines.includes('config/samples/bad.yaml:3:11: metadata.name: required: a name (or generateName)'), e.message);
  assert.ok(lines.some((l) => /^config\/samples\/bad\.yaml:6:7: kind: unknown kind "Gizmo" in example\.com\/v1/.test(l)), e.message);
  assert.ok(lines.some((l) => /^config\/samples\/broken\.yaml:\d+:\d+: YAML: /.test(l)), e.message);
  assert.ok(lines.includes('controller-lab/scenario.yaml:4:5: include[1]: ../config/missing: no such file or directory'), e.message);
  assert.ok(lines.includes('config/rbac/kustomization.yaml:2:3: resources[0]: role.yaml: no such file or directory'), e.message);
  assert.ok(lines.some((l) => /^config\/rbac\/kustomization\.yaml:3:3: resources\[1\]: .*remote resources are not read/.test(l)), e.message);
  assert.ok(lines.includes('controller-lab/scenario.yaml:6:5: include[3]: must be a path to a file or folder'), e.message);
  assert.ok(lines.some((l) => /^controller-lab\/scenario\.yaml:8:\d+: objects\[0\]\.kind: unknown kind "Widget"/.test(l)), e.message);
  assert.ok(lines.some((l) => /^controller-lab\/scenario\.yaml:10:\d+: steps\[0\]\.at: /.test(l)), e.message);
  assert.equal(e.problems.length, 9, e.message);
  assert.equal(c.resourceVersion, rv, 'nothing was applied');
});

test('a file the scenario includes by name that holds no Kubernetes object is a problem; such files in an included folder are not', (t) => {
  const dir = project(t, { 'notes.yaml': 'hello: world\n', 'config/samples/memcached.yaml': SAMPLE, 'config/samples/kustomizeconfig.yaml': 'nameReference:\n- kind: Service\n', 'config/crd/bases/memcached.yaml': CRD });
  const e = problemsOf(() => load(cluster(), dir, 'include:\n  - ../config/crd/bases\n  - ../config/samples\n  - ../notes.yaml\n'));
  assert.deepEqual(e.message.split('\n'), ['notes.yaml:1:1: holds no Kubernetes objects (no document with apiVersion and kind)'], e.message);
});

test('a missing config/crd/bases says make manifests writes it (a fresh kubebuilder scaffold has none)', (t) => {
  const dir = project(t, { 'config/samples/memcached.yaml': SAMPLE });
  const e = problemsOf(() => load(cluster(), dir, 'include:\n  - ../config/crd/bases\n  - ../config/samples\n'));
  assert.ok(e.message.split('\n').includes('controller-lab/scenario.yaml:2:5: include[0]: ../config/crd/bases: no such file or directory (kubebuilder writes it: make manifests)'), e.message);
});

test('a kind is known when a CRD the scenario includes defines it, and unknown when none does', (t) => {
  const dir = project(t, { 'config/crd/bases/memcached.yaml': CRD, 'config/samples/memcached.yaml': SAMPLE });
  const withCrd = checkScenario(cluster(), 'include: [../config/samples, ../config/crd/bases]\n', { fileName: 'controller-lab/scenario.yaml', baseDir: join(dir, 'controller-lab') });
  assert.deepEqual(withCrd.objects.map((o) => o.object.kind), ['Memcached', 'CustomResourceDefinition']);
  const e = problemsOf(() => checkScenario(cluster(), 'include: [../config/samples]\n', { fileName: 'controller-lab/scenario.yaml', baseDir: join(dir, 'controller-lab') }));
  assert.equal(e.problems.length, 1);
  assert.match(e.message, /^config\/samples\/memcached\.yaml:2:7: kind: unknown kind "Memcached" in cache\.example\.com\/v1alpha1 \(not built in, and no CustomResourceDefinition in this scenario or the files it includes defines it\)$/);
});

test('a scenario sent as text (no folder) can include absolute paths only, and says why', (t) => {
  const dir = project(t, { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: abs, namespace: default }\n' });
  const c = cluster();
  c.loadScenario(`include: [${join(dir, 'cm.yaml')}]\n`, { fileName: 'admin-request.yaml' });
  assert.equal(c.get(CM, 'default', 'abs').object.metadata.name, 'abs');
  const e = problemsOf(() => c.loadScenario('include: [cm.yaml]\n', { fileName: 'admin-request.yaml' }));
  assert.match(e.message, /^admin-request\.yaml:1:11: include\[0\]: cm\.yaml: a relative path needs the scenario's folder/);
});

test('a missing scenario file is one line naming it', async (t) => {
  await assert.rejects(readScenarioFile('nowhere/scenario.yaml'), (err: unknown) => err instanceof ScenarioFileNotFound && err.message === 'scenario file not found: nowhere/scenario.yaml');
  await assert.rejects(launchSim({ scenario: 'nowhere/scenario.yaml' }), { message: 'scenario file not found: nowhere/scenario.yaml' });
  // The launcher checks kinds against the included CRDs before anything listens (or a program is built).
  const dir = project(t, { 'config/samples/memcached.yaml': SAMPLE, 'controller-lab/scenario.yaml': 'include: [../config/samples]\n' });
  await assert.rejects(launchSim({ scenario: join(dir, 'controller-lab/scenario.yaml') }), (err: unknown) => err instanceof ScenarioError && /unknown kind "Memcached"/.test(err.message));
});

test('samples of one object in two API versions (kubebuilder names both <kind>-sample): one object, and the run says so', async (t) => {
  const twoVersions = CRD.replace(
    '  versions:\n',
    '  versions:\n  - name: v1beta1\n    served: true\n    storage: false\n    subresources: { status: {} }\n    schema:\n      openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true }\n',
  );
  const dir = project(t, {
    'config/crd/bases/memcacheds.yaml': twoVersions,
    'config/samples/cache_v1alpha1_memcached.yaml': SAMPLE,
    'config/samples/cache_v1beta1_memcached.yaml': SAMPLE.replace('v1alpha1', 'v1beta1').replace('size: 1', 'replicas: 2'),
    'config/samples/cache_v1alpha1_other.yaml': SAMPLE.replace('memcached-sample', 'other-sample'),
    'controller-lab/scenario.yaml': 'include: [../config/crd/bases, ../config/samples]\n',
  });
  const sim = await launchSim({ scenario: join(dir, 'controller-lab/scenario.yaml') });
  try {
    // (Files outside the working directory are named in full.)
    const samples = join(dir, 'config/samples');
    assert.deepEqual(sim.scenarioWarnings, [
      `${samples}/cache_v1beta1_memcached.yaml:1:1: Memcached memcached-sample is also in ${samples}/cache_v1alpha1_memcached.yaml (cache.example.com/v1alpha1; this one is cache.example.com/v1beta1): one object in the cluster, with this one merged onto it, as kubectl apply -k does; give the samples different names to have both`,
    ]);
    sim.startScenario();
    await sim.scenarioDone;
    assert.deepEqual(sim.cluster.get(MEMCACHEDS, 'default', 'memcached-sample').object.spec, { size: 1, replicas: 2 });
  } finally {
    await sim.stop();
  }
});
