import { appendFileSync } from 'node:fs';
import { loadCluster } from '../../src/kube/index.ts';
import type { Cluster } from '../../src/kube/index.ts';
import type { ApiResource, KubeList, KubeObject } from '../../src/shared/k8s.ts';

// The server these tests run against, named by the environment alone: a kubeconfig with an admin
// user, and where to ask for the one thing a client cannot do itself (make the server forget its
// history). scripts/conformance/informer.mjs sets both, for kube-apiserver and for the sim in turn.
// A variable of our own, not KUBECONFIG: these tests write thousands of objects, never into a
// cluster someone merely has configured.

export const KUBECONFIG_ENV = 'CONTROLLER_LAB_CONFORMANCE_KUBECONFIG';
export const CONTROL_ENV = 'CONTROLLER_LAB_CONFORMANCE_CONTROL';
export const MEASURES_ENV = 'CONTROLLER_LAB_CONFORMANCE_MEASURES';

export function targetKubeconfig(): string {
  const path = process.env[KUBECONFIG_ENV];
  if (!path) throw new Error(`${KUBECONFIG_ENV} is not set: run these tests with node scripts/conformance/informer.mjs`);
  return path;
}

/** The admin client the tests change the world with (the informer under test gets its own). */
export function adminCluster(): Cluster {
  return loadCluster({ kubeconfig: targetKubeconfig() });
}

/**
 * Makes the server forget its history, so a watch resuming from a resourceVersion before now is
 * answered 410: kube-apiserver restarted after an etcd compaction, or the sim's compact fault.
 */
export function expireHistory(): Promise<string> {
  return askControl('expire');
}

/**
 * Compacts the server's storage: a paged list's continue token from before now is answered 410.
 * kube-apiserver: etcd compacted (its watch cache still serves watches); the sim: its compact fault.
 */
export function compactStorage(): Promise<string> {
  return askControl('compact');
}

async function askControl(action: 'expire' | 'compact'): Promise<string> {
  const control = process.env[CONTROL_ENV];
  if (!control) throw new Error(`${CONTROL_ENV} is not set: run these tests with node scripts/conformance/informer.mjs`);
  const res = await fetch(`${control}/${action}`, { method: 'POST' });
  const text = await res.text();
  if (!res.ok) throw new Error(`${action} on the server failed: ${res.status} ${text}`);
  return text;
}

/** A number for the report beside the verdicts (sync time, pages), one JSON line per figure. */
export function measure(test: string, name: string, value: number, unit: string): void {
  const file = process.env[MEASURES_ENV];
  if (file) appendFileSync(file, `${JSON.stringify({ test, name, value, unit })}\n`);
}

/** What a server said, for the report beside the figures (no number). */
export function note(test: string, text: string): void {
  const file = process.env[MEASURES_ENV];
  if (file) appendFileSync(file, `${JSON.stringify({ test, name: text, value: null, unit: '' })}\n`);
}

/** A name no earlier run on the same server used. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

const json = { 'Content-Type': 'application/json' };

export async function create<T extends KubeObject>(cluster: Cluster, collection: string, obj: T): Promise<T> {
  return cluster.request<T>(collection, { method: 'POST', body: JSON.stringify(obj), headers: json });
}

/** A PUT carrying the object's resourceVersion: a stale one is refused (409), as for a controller. */
export async function update<T extends KubeObject>(cluster: Cluster, collection: string, obj: T): Promise<T> {
  return cluster.request<T>(`${collection}/${obj.metadata.name}`, { method: 'PUT', body: JSON.stringify(obj), headers: json });
}

/** The deleted object's last resourceVersion when the server returns it (a Status otherwise). */
export async function remove(cluster: Cluster, collection: string, name: string): Promise<string | undefined> {
  const answer = await cluster.request<KubeObject>(`${collection}/${name}`, { method: 'DELETE' });
  return answer.kind === 'Status' ? undefined : answer.metadata.resourceVersion;
}

export async function createNamespace(cluster: Cluster, name: string): Promise<void> {
  await create(cluster, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** Runs `work` over `items`, `width` at a time (thousands of creates one by one take minutes). */
export async function inParallel<I>(items: readonly I[], width: number, work: (item: I) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/** Every object of a collection by a paged list (limit/continue) at the newest version, as a fresh client sees it. */
export async function listAll<T extends KubeObject>(cluster: Cluster, collection: string, limit = 500): Promise<{ items: T[]; pages: number; resourceVersion: string }> {
  const items: T[] = [];
  let pages = 0;
  let cont: string | undefined;
  let resourceVersion = '';
  do {
    const page = await cluster.request<KubeList<T>>(collection, { query: { limit, continue: cont } });
    pages++;
    // kube-apiserver lists built-in kinds with bare items; watched objects (and so the cache) carry both.
    for (const item of page.items) {
      item.kind ??= page.kind?.replace(/List$/, '');
      item.apiVersion ??= page.apiVersion;
    }
    items.push(...page.items);
    cont = page.metadata?.continue || undefined;
    resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
  } while (cont);
  return { items, pages, resourceVersion };
}

export async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** resourceVersions are opaque to clients, but both servers here hand out etcd-style integers; tests compare them. */
export function rvNumber(rv: string | undefined): bigint {
  if (!rv || !/^\d+$/.test(rv)) throw new Error(`resourceVersion ${JSON.stringify(rv)} is not an integer`);
  return BigInt(rv);
}

export const CONFIGMAPS: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };

export const configMapsIn = (namespace: string): string => `/api/v1/namespaces/${namespace}/configmaps`;

export function configMap(namespace: string, name: string, data: Record<string, string>, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, ...(labels ? { labels } : {}) }, data } as KubeObject;
}

/** The cache and a fresh list hold the same objects, field for field. */
export function byKey(objects: readonly KubeObject[]): Map<string, KubeObject> {
  return new Map(objects.map((o) => [`${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`, o]));
}
