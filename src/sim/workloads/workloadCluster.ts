import { isNotFound } from '../../shared/apiError.ts';
import type { Clock } from '../../shared/clock.ts';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import type {
  DeleteOptions,
  DeleteResult,
  ListRequest,
  ListResult,
  RequestContext,
  SimWatch,
  StoredObject,
  Subresource,
  WatchListener,
  WatchRequest,
} from '../store/types.ts';

// The slice of the simulated cluster the built-in workload controllers use: the same calls any
// in-process client makes, so their watches and writes show in the Clients view like anyone's.

export interface WorkloadCluster {
  readonly clock: Clock;
  list(gvr: GroupVersionResource, request: ListRequest, ctx?: RequestContext): ListResult;
  get(gvr: GroupVersionResource, namespace: string, name: string, subresource?: Subresource, ctx?: RequestContext): StoredObject;
  create(gvr: GroupVersionResource, namespace: string, body: KubeObject, ctx?: RequestContext): StoredObject;
  update(gvr: GroupVersionResource, namespace: string, name: string, body: KubeObject, subresource?: Subresource, ctx?: RequestContext): StoredObject;
  delete(gvr: GroupVersionResource, namespace: string, name: string, options?: DeleteOptions, ctx?: RequestContext): DeleteResult;
  watch(gvr: GroupVersionResource, request: WatchRequest, listener: WatchListener, ctx?: RequestContext): SimWatch;
  /** The version a group/resource is stored in, or undefined when it is not served (quota counts any resource by name). */
  servedVersion(group: string, resource: string): string | undefined;
}

export const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
export const NODES: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };
export const DEPLOYMENTS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };
export const REPLICASETS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'replicasets' };
export const REPLICATIONCONTROLLERS: GroupVersionResource = { group: '', version: 'v1', resource: 'replicationcontrollers' };
export const STATEFULSETS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'statefulsets' };
export const DAEMONSETS: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'daemonsets' };
export const JOBS: GroupVersionResource = { group: 'batch', version: 'v1', resource: 'jobs' };

/** The same cluster, its workload loops timed by `clock` instead of the cluster's own. */
export function onClock(cluster: WorkloadCluster, clock: Clock): WorkloadCluster {
  return {
    clock,
    list: (...a) => cluster.list(...a),
    get: (...a) => cluster.get(...a),
    create: (...a) => cluster.create(...a),
    update: (...a) => cluster.update(...a),
    delete: (...a) => cluster.delete(...a),
    watch: (...a) => cluster.watch(...a),
    servedVersion: (...a) => cluster.servedVersion(...a),
  };
}

/** A user agent like the one each kube-controller-manager loop sends (its service account at the end). */
export function controllerManagerAgent(controller: string): string {
  return `kube-controller-manager/v1.28.4 (linux/amd64) kubernetes/sim/system:serviceaccount:kube-system:${controller}`;
}

/** A deep, mutable copy of a stored (frozen) object. */
export function mutable<T extends KubeObject>(object: Readonly<T>): T {
  return structuredClone(object) as T;
}

/** A mutable copy of the object, or undefined when it does not exist. */
export function getObject(cluster: WorkloadCluster, gvr: GroupVersionResource, namespace: string, name: string, ctx: RequestContext): KubeObject | undefined {
  try {
    return mutable(cluster.get(gvr, namespace, name, undefined, ctx).object);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Objects of one resource in a namespace ('' for all or cluster-scoped), as mutable copies. */
export function listObjects(cluster: WorkloadCluster, gvr: GroupVersionResource, namespace: string, ctx: RequestContext, labelSelector?: string): KubeObject[] {
  const request: ListRequest = { namespace };
  if (labelSelector) request.labelSelector = labelSelector;
  return cluster.list(gvr, request, ctx).items.map((s) => s.object as KubeObject);
}
