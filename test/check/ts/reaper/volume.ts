// The reaper, but for how it deletes a volume. A parent gets a data volume, a ConfigMap
// `<parent>-data` (not owned by the parent, as a StatefulSet's PVC is not owned by the cluster
// resource: nothing else removes it), made once, when the parent is first seen and takes the
// reaper's finalizer. When the parent is deleted the finalizer holds it until its volume is
// deleted. A parent may be deleted and made again under the same name: the new one gets a new
// volume, which no cleanup of the old one may touch.
import { defineController, type ControllerDefinition, type ReconcileContext } from 'controller-lab';
import { alreadyExists, CONFIGMAP, PARENT_LABEL, type ConfigMap } from '../family.ts';

export const FINALIZER = 'check.example.com/data';
/** Which parent a volume was made for. */
export const PARENT_UID = 'check.example.com/parent-uid';

/** Deletes the volume of `parent`, which is terminating. */
export type DeleteVolume = (ctx: ReconcileContext, parent: ConfigMap) => Promise<void>;

/** The name of parent's volume. */
export const volumeName = (parent: ConfigMap): string => `${parent.metadata.name ?? ''}-data`;

/** A delete of what is gone already is done. */
export function notFound(err: unknown): void {
  if ((err as { code?: number }).code !== 404) throw err;
}

function withFinalizers(parent: ConfigMap, finalizers: string[]): ConfigMap {
  return { ...parent, metadata: { ...parent.metadata, finalizers } };
}

export function reaper(deleteVolume: DeleteVolume): ControllerDefinition {
  return defineController({
    name: 'reaper',
    for: CONFIGMAP,
    async reconcile(req, ctx) {
      const parent = ctx.get<ConfigMap>('ConfigMap', req.namespace, req.name);
      if (parent?.metadata.labels?.[PARENT_LABEL] !== 'true') return;
      const finalizers = parent.metadata.finalizers ?? [];
      if (parent.metadata.deletionTimestamp) {
        if (!finalizers.includes(FINALIZER)) return;
        await deleteVolume(ctx, parent);
        await ctx.client.update(withFinalizers(parent, finalizers.filter((f) => f !== FINALIZER)));
        return;
      }
      if (finalizers.includes(FINALIZER)) return;
      const volume: ConfigMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: volumeName(parent), namespace: parent.metadata.namespace, labels: { [PARENT_UID]: parent.metadata.uid ?? '' } },
        data: { for: parent.metadata.name ?? '' },
      };
      await ctx.client.create(volume).catch(alreadyExists);
      await ctx.client.update(withFinalizers(parent, [...finalizers, FINALIZER]));
    },
  });
}
