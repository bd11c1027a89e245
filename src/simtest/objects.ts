import { ApiError } from '../shared/apiError.ts';
import type { ApiResource } from '../shared/k8s.ts';
import type { KubeObject } from '../../types/simtest.d.ts';
import { collectionPath, loadCluster, type Cluster } from '../kube/index.ts';

// A test's hands on the sim's objects, by apiVersion and kind as manifests name them: server-side
// apply (a test states what it wants, again and again), get, list and delete. CRDs applied are
// waited for until they are Established and served, so the next line can use them.

const FIELD_MANAGER = 'controller-lab-simtest';
const ESTABLISHED_TIMEOUT_MS = 30_000;

export class SimObjects {
  private readonly cluster: Cluster;

  constructor(kubeconfig: string) {
    this.cluster = loadCluster({ kubeconfig });
  }

  async apply(objects: readonly KubeObject[]): Promise<KubeObject[]> {
    const applied: KubeObject[] = [];
    // CRDs and Namespaces first, so objects of their kinds and in them, in the same call, find them.
    const crds = objects.filter(isCrd);
    for (const crd of crds) applied.push(await this.applyOne(crd));
    if (crds.length > 0) await Promise.all(crds.map((crd) => this.established(crd)));
    for (const namespace of objects.filter(isNamespace)) applied.push(await this.applyOne(namespace));
    for (const object of objects) if (!isCrd(object) && !isNamespace(object)) applied.push(await this.applyOne(object));
    return applied;
  }

  async get(apiVersion: string, kind: string, name: string, namespace?: string): Promise<KubeObject | undefined> {
    const resource = await this.resource(apiVersion, kind);
    try {
      return await this.cluster.request<KubeObject>(objectPath(resource, name, namespace));
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  }

  async list(apiVersion: string, kind: string, namespace?: string): Promise<KubeObject[]> {
    const resource = await this.resource(apiVersion, kind);
    const list = await this.cluster.request<{ items: KubeObject[] }>(collectionPath(resource, resource.namespaced ? namespace : undefined));
    return list.items.map((item) => ({ apiVersion, kind, ...item }));
  }

  /** Deletes the object (background propagation, as kubectl); false when there was none. */
  async delete(apiVersion: string, kind: string, name: string, namespace?: string): Promise<boolean> {
    const resource = await this.resource(apiVersion, kind);
    try {
      await this.cluster.request(objectPath(resource, name, namespace), { method: 'DELETE', query: { propagationPolicy: 'Background' } });
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return false;
      throw err;
    }
  }

  close(): void {
    this.cluster.close();
  }

  private async applyOne(object: KubeObject): Promise<KubeObject> {
    const { apiVersion = '', kind = '' } = object;
    const name = object.metadata?.name;
    if (!name) throw new Error(`controller-lab/simtest: a ${kind} to apply needs metadata.name (server-side apply names what it applies)`);
    const resource = await this.resource(apiVersion, kind);
    const namespace = resource.namespaced ? (object.metadata.namespace ?? 'default') : undefined;
    return this.cluster.request<KubeObject>(objectPath(resource, name, namespace), {
      method: 'PATCH',
      query: { fieldManager: FIELD_MANAGER, force: true },
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
      body: JSON.stringify(object),
    });
  }

  private async resource(apiVersion: string, kind: string): Promise<ApiResource> {
    const [group, version] = apiVersion.includes('/') ? (apiVersion.split('/') as [string, string]) : ['', apiVersion];
    const find = (resources: ApiResource[]) => resources.find((r) => r.kind === kind && r.group === group && r.version === version);
    const found = find((await this.cluster.discover()).resources) ?? find((await this.cluster.discover({ refresh: true })).resources);
    if (!found) throw new Error(`controller-lab/simtest: the sim serves no ${kind} in ${apiVersion}${group && !group.endsWith('.k8s.io') ? ' (apply its CRD first, or pass it in startSim({ manifests }))' : ''}`);
    return found;
  }

  /** Waits until the CRD is Established and its kinds are in discovery. */
  private async established(crd: KubeObject): Promise<void> {
    const name = crd.metadata.name ?? '';
    const deadline = Date.now() + ESTABLISHED_TIMEOUT_MS;
    for (;;) {
      const current = await this.cluster.request<{ status?: { conditions?: { type: string; status: string }[] } }>(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${encodeURIComponent(name)}`);
      if (current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) {
        await this.cluster.discover({ refresh: true });
        return;
      }
      if (Date.now() > deadline) throw new Error(`controller-lab/simtest: CRD ${name} was not Established within ${ESTABLISHED_TIMEOUT_MS / 1000} s: ${JSON.stringify(current.status ?? {})}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function isCrd(object: KubeObject): boolean {
  return object.kind === 'CustomResourceDefinition' && (object.apiVersion ?? '').startsWith('apiextensions.k8s.io/');
}

function isNamespace(object: KubeObject): boolean {
  return object.kind === 'Namespace' && object.apiVersion === 'v1';
}

function objectPath(resource: ApiResource, name: string, namespace: string | undefined): string {
  return `${collectionPath(resource, resource.namespaced ? (namespace ?? 'default') : undefined)}/${encodeURIComponent(name)}`;
}
