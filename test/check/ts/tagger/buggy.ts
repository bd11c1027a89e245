// The tagger: each parent keeps a record, `<parent>-record` (in a registry the cluster does not
// own: no ownerReference), and the tagger's finalizer, check.example.com/record, so that the record
// goes before the parent does. Parents may carry other tools' finalizers too.
//
// Planted bug (stale state): it appends its finalizer with a JSON patch (`add
// /metadata/finalizers/-`) when the parent in its cache does not have it. A reconcile on a cache
// that does not show its own append yet appends it again: the parent ends with the finalizer
// twice (a JSON patch carries no resourceVersion, so nothing refuses the second append).
import { defineController } from 'controller-lab';
import { alreadyExists, CONFIGMAP, type ConfigMap, PARENT_LABEL } from '../family.ts';

const FINALIZER = 'check.example.com/record';

export default defineController({
  name: 'tagger',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = ctx.get<ConfigMap>('ConfigMap', req.namespace, req.name);
    if (parent?.metadata.labels?.[PARENT_LABEL] !== 'true') return;
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: req.namespace, name: req.name };
    const finalizers = parent.metadata.finalizers ?? [];
    if (parent.metadata.deletionTimestamp) {
      const at = finalizers.indexOf(FINALIZER);
      if (at < 0) return;
      await ctx.client.delete({ ...ref, name: `${req.name}-record` }).catch((e: { code?: number }) => { if (e.code !== 404) throw e; });
      await ctx.client.patch(ref, [{ op: 'test', path: `/metadata/finalizers/${at}`, value: FINALIZER }, { op: 'remove', path: `/metadata/finalizers/${at}` }], 'json');
      return;
    }
    if (!finalizers.includes(FINALIZER)) {
      const add = finalizers.length > 0 ? { op: 'add', path: '/metadata/finalizers/-', value: FINALIZER } : { op: 'add', path: '/metadata/finalizers', value: [FINALIZER] };
      await ctx.client.patch(ref, [add], 'json');
    }
    const record: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${req.name}-record`, namespace: req.namespace }, data: { parent: req.name } };
    await ctx.client.create(record).catch(alreadyExists);
  },
});
