// Discovery for the cluster plumbing kinds: exactly what a v1.28 kube-apiserver lists — from the
// recorded reference for core and apps, else the well-known v1.28 entries (short names, scope,
// categories, the hash storageVersionHash() derives as the real server does).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const REFERENCE = '/work/shared/reference/discovery';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const sim = suiteServer();

const entry = (name: string, kind: string, namespaced: boolean, extra: Json = {}): Json =>
  ({ name, singularName: kind.toLowerCase(), namespaced, kind, verbs: ALL, ...extra });

/** What a real v1.28 server lists in these group versions, for the resources the sim serves there. */
const REAL_V1_28: Record<string, Json[]> = {
  'discovery.k8s.io/v1': [entry('endpointslices', 'EndpointSlice', true, { storageVersionHash: 'qgS0xkrxYAI=' })],
  'scheduling.k8s.io/v1': [entry('priorityclasses', 'PriorityClass', false, { shortNames: ['pc'], storageVersionHash: '1QwjyaZjj3Y=' })],
  'storage.k8s.io/v1': [
    entry('csidrivers', 'CSIDriver', false, { storageVersionHash: 'hL6j/rwBV5w=' }),
    entry('csinodes', 'CSINode', false, { storageVersionHash: 'Pe62DkZtjuo=' }),
    entry('csistoragecapacities', 'CSIStorageCapacity', true, { storageVersionHash: 'xeVl+2Ly1kE=' }),
    entry('storageclasses', 'StorageClass', false, { shortNames: ['sc'], storageVersionHash: 'K+m6uJwbjGY=' }),
    entry('volumeattachments', 'VolumeAttachment', false, { storageVersionHash: 'tJx/ezt6UDU=' }),
    { name: 'volumeattachments/status', singularName: '', namespaced: false, kind: 'VolumeAttachment', verbs: ['get', 'patch', 'update'] },
  ],
  'apiregistration.k8s.io/v1': [
    entry('apiservices', 'APIService', false, { categories: ['api-extensions'], storageVersionHash: 'InPBPD7+PqM=' }),
    { name: 'apiservices/status', singularName: '', namespaced: false, kind: 'APIService', verbs: ['get', 'patch', 'update'] },
  ],
  'admissionregistration.k8s.io/v1': [
    entry('mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', false, { categories: ['api-extensions'], storageVersionHash: 'Sqi0GUgDaX0=' }),
    entry('validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', false, { categories: ['api-extensions'], storageVersionHash: 'B0wHjQmsGNk=' }),
  ],
};

function referenceEntries(file: string, names: string[]): Json[] {
  const doc = JSON.parse(readFileSync(join(REFERENCE, file), 'utf8'));
  return names.map((n) => doc.resources.find((r: Json) => r.name === n));
}

async function served(groupVersionPath: string, names: string[]): Promise<Json[]> {
  const doc = (await call(sim.server, 'GET', groupVersionPath)).json();
  return names.map((n) => doc.resources.find((r: Json) => r.name === n));
}

describe('discovery of the cluster plumbing kinds', () => {
  it('core quotas, limit ranges, pod templates and apps ControllerRevisions match the recorded v1.28 server', async () => {
    const core = ['resourcequotas', 'resourcequotas/status', 'limitranges', 'podtemplates'];
    assert.deepEqual(await served('/api/v1', core), referenceEntries('api_v1.json', core));
    assert.deepEqual(await served('/apis/apps/v1', ['controllerrevisions']), referenceEntries('apis_apps_v1.json', ['controllerrevisions']));
  });

  it('discovery, scheduling, storage, apiregistration and admissionregistration list what a v1.28 server lists', async () => {
    for (const [groupVersion, expected] of Object.entries(REAL_V1_28)) {
      const doc = (await call(sim.server, 'GET', `/apis/${groupVersion}`)).json();
      assert.equal(doc.groupVersion, groupVersion);
      assert.deepEqual(doc.resources, expected, groupVersion);
    }
    const ingressClasses = await served('/apis/networking.k8s.io/v1', ['ingressclasses']);
    assert.deepEqual(ingressClasses, [entry('ingressclasses', 'IngressClass', false, { storageVersionHash: 'l/iqIbDgFyQ=' })]);
    const groups = (await call(sim.server, 'GET', '/apis')).json().groups.map((g: Json) => g.name);
    for (const g of ['discovery.k8s.io', 'scheduling.k8s.io', 'storage.k8s.io', 'admissionregistration.k8s.io']) assert.ok(groups.includes(g), g);
    assert.equal(groups[0], 'apiregistration.k8s.io', 'listed first, as kube-aggregator puts it');
  });

  it('the aggregated document carries scope, short names, categories and the quota\'s /status', async () => {
    const doc = (await call(sim.server, 'GET', '/apis', { accept: AGGREGATED })).json();
    const resource = (group: string, name: string): Json =>
      doc.items.find((i: Json) => i.metadata.name === group).versions[0].resources.find((r: Json) => r.resource === name);
    assert.deepEqual([resource('storage.k8s.io', 'storageclasses').scope, resource('storage.k8s.io', 'storageclasses').shortNames], ['Cluster', ['sc']]);
    assert.deepEqual(resource('admissionregistration.k8s.io', 'validatingwebhookconfigurations').categories, ['api-extensions']);
    assert.equal(resource('discovery.k8s.io', 'endpointslices').scope, 'Namespaced');
    const core = (await call(sim.server, 'GET', '/api', { accept: AGGREGATED })).json();
    const quota = core.items[0].versions[0].resources.find((r: Json) => r.resource === 'resourcequotas');
    assert.deepEqual([quota.shortNames, quota.subresources.map((s: Json) => s.subresource)], [['quota'], ['status']]);
  });
});
