// Parents and children, as every controller here has them: a parent is a ConfigMap labelled
// check.example.com/parent=true; its children are ConfigMaps it controls (an ownerReference with
// controller: true), labelled with the parent's name so they can be listed. No CRDs: the
// controllers start in a moment and the bugs are in their logic, not their types.
import type { KubeObject, ReconcileContext, ReconcileRequest } from 'controller-lab';

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

export const CONFIGMAP = { apiVersion: 'v1', kind: 'ConfigMap' };
export const PARENT_LABEL = 'check.example.com/parent';
export const PARENT_NAME_LABEL = 'check.example.com/parent-name';

/** The parent the request names, from the cache; undefined for any other ConfigMap, or one going away. */
export function parentOf(req: ReconcileRequest, ctx: ReconcileContext): ConfigMap | undefined {
  const cm = ctx.get<ConfigMap>('ConfigMap', req.namespace, req.name);
  return cm?.metadata.labels?.[PARENT_LABEL] === 'true' && !cm.metadata.deletionTimestamp ? cm : undefined;
}

/** The parent's children in the cache. */
export function childrenOf(ctx: ReconcileContext, parent: ConfigMap): ConfigMap[] {
  return ctx
    .list<ConfigMap>('ConfigMap', { namespace: parent.metadata.namespace, labelSelector: { [PARENT_NAME_LABEL]: parent.metadata.name ?? '' } })
    .filter((c) => c.metadata.ownerReferences?.some((o) => o.controller && o.uid === parent.metadata.uid));
}

/** A child of `parent`, named or with a generated name, holding `data`. */
export function childOf(parent: ConfigMap, name: { name: string } | { generateName: string }, data: Record<string, string>): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      ...name,
      namespace: parent.metadata.namespace,
      labels: { [PARENT_NAME_LABEL]: parent.metadata.name ?? '' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: parent.metadata.name ?? '', uid: parent.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    data,
  };
}

/** The parent with one annotation set. */
export function annotated(parent: ConfigMap, key: string, value: string): ConfigMap {
  return { ...parent, metadata: { ...parent.metadata, annotations: { ...parent.metadata.annotations, [key]: value } } };
}

/** Creating what exists already is fine: the object is there. */
export function alreadyExists(err: unknown): void {
  if ((err as { code?: number }).code !== 409) throw err;
}
