import type { ApiResource, KubeObject } from '../shared/k8s.ts';
import { apiVersionOf, qualifiedResource } from '../shared/k8s.ts';
import type { Clock } from '../shared/clock.ts';
import type { Cluster } from '../kube/index.ts';
import { collectionPath } from '../kube/index.ts';
import { createSharedInformer } from '../informer/index.ts';
import { seededRandom, seedOf } from '../shared/seededRandom.ts';
import type { Probe } from '../informer/index.ts';
import { INSTALL_CRD_HINT, type DeleteOptions, type KindRef } from '../controllerProtocol/index.ts';
import type { ObjectWriter } from './engine/ports.ts';
import { SharedInformerAdapter } from './informerAdapter.ts';

// Connects the controller's kinds to a cluster: discovery maps each `{ apiVersion, kind }` to the
// resource the API serves, one shared informer per kind (all namespaces), and a writer for the
// recorded client.

const PATCH_CONTENT_TYPE = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
} as const;

function deleteOptionsBody(options: DeleteOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions' };
  if (options.preconditions) body['preconditions'] = options.preconditions;
  if (options.propagationPolicy) body['propagationPolicy'] = options.propagationPolicy;
  return body;
}

export class ClusterBinding {
  private readonly cluster: Cluster;
  private resources: ApiResource[] = [];

  constructor(cluster: Cluster) {
    this.cluster = cluster;
  }

  async discover(): Promise<void> {
    this.resources = (await this.cluster.discover()).resources;
  }

  resourceFor(kind: KindRef): ApiResource {
    const found = this.resources.find((r) => r.kind === kind.kind && apiVersionOf(r) === kind.apiVersion);
    if (found) return found;
    const sameKind = this.resources.filter((r) => r.kind === kind.kind).map(apiVersionOf);
    const hint = sameKind.length ? ` (served as ${sameKind.join(', ')})` : `; ${INSTALL_CRD_HINT}`;
    throw new Error(`the cluster does not serve ${kind.apiVersion} ${kind.kind}${hint}`);
  }

  /** With `jitterSeed`, each kind's informer draws its own repeatable sequence, whatever order they start in. */
  informer(kind: KindRef, clock: Clock, onProbe: (p: Probe) => void, jitterSeed?: number): SharedInformerAdapter {
    const resource = this.resourceFor(kind);
    const name = qualifiedResource(resource);
    const informer = createSharedInformer({
      name,
      listerWatcher: this.cluster.listerWatcher(resource),
      clock,
      ...(jitterSeed === undefined ? {} : { random: seededRandom((jitterSeed ^ seedOf(name)) >>> 0) }),
    });
    informer.onProbe(onProbe);
    return new SharedInformerAdapter(kind, informer, name);
  }

  writer(): ObjectWriter {
    const path = (ref: { apiVersion: string; kind: string; namespace?: string; name?: string }, sub?: string) => {
      const r = this.resourceFor(ref);
      const base = collectionPath(r, r.namespaced ? ref.namespace || 'default' : undefined);
      return ref.name ? `${base}/${encodeURIComponent(ref.name)}${sub ? `/${sub}` : ''}` : base;
    };
    const json = { 'Content-Type': 'application/json' };
    const refOf = (o: KubeObject) => ({ apiVersion: o.apiVersion ?? '', kind: o.kind ?? '', namespace: o.metadata.namespace, name: o.metadata.name });
    return {
      create: (obj) => this.cluster.request<KubeObject>(path({ ...refOf(obj), name: undefined }), { method: 'POST', body: JSON.stringify(obj), headers: json }),
      update: (obj, sub) => this.cluster.request<KubeObject>(path(refOf(obj), sub), { method: 'PUT', body: JSON.stringify(obj), headers: json }),
      patch: (ref, patch, type) =>
        this.cluster.request<KubeObject>(path(ref), { method: 'PATCH', body: JSON.stringify(patch), headers: { 'Content-Type': PATCH_CONTENT_TYPE[type] } }),
      // Options go as a DeleteOptions body, as client-go sends them.
      delete: (ref, options) =>
        this.cluster.request<KubeObject>(path(ref), {
          method: 'DELETE',
          ...(options ? { body: JSON.stringify(deleteOptionsBody(options)), headers: json } : {}),
        }),
    };
  }

  close(): void {
    this.cluster.close();
  }
}
