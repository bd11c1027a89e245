// The tagger, fixed: the finalizer is added by an update of the cached parent, which carries the
// parent's resourceVersion: on a cache that does not show its own append yet, the update is refused
// with 409 Conflict and retried once the cache has caught up, when the finalizer is there.
import { defineController } from 'controller-lab';
import { alreadyExists, CONFIGMAP, type ConfigMap, PARENT_LABEL } from '../family.ts';

const FINALIZER = 'check.example.com/record';

export default defineController({
  name: 'tagger',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = ctx.get<ConfigMap>('ConfigMap', req.namespace, req.name);
    if (parent?.metadata.labels?.[PARENT_LABEL] !== 'true') return;
    const finalizers = parent.metadata.finalizers ?? [];
    if (parent.metadata.deletionTimestamp) {
      if (!finalizers.includes(FINALIZER)) return;
      await ctx.client.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: req.namespace, name: `${req.name}-record` }).catch((e: { code?: number }) => { if (e.code !== 404) throw e; });
      await ctx.client.update({ ...parent, metadata: { ...parent.metadata, finalizers: finalizers.filter((f) => f !== FINALIZER) } });
      return;
    }
    if (!finalizers.includes(FINALIZER)) {
      await ctx.client.update({ ...parent, metadata: { ...parent.metadata, finalizers: [...finalizers, FINALIZER] } });
    }
    const record: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${req.name}-record`, namespace: req.namespace }, data: { parent: req.name } };
    await ctx.client.create(record).catch(alreadyExists);
  },
});
