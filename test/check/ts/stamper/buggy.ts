// The stamper: for each parent it keeps a summary child, `<parent>-summary`, listing the parent's
// data keys.
//
// Planted bug (not idempotent): it stamps the summary with the time of every reconcile
// (`data.syncedAt`), so a resync, a restart or any event writes the summary again although
// nothing changed: needless writes, and a resourceVersion that never settles.
import { defineController } from 'controller-lab';
import { childOf, CONFIGMAP, parentOf, type ConfigMap } from '../family.ts';

export default defineController({
  name: 'stamper',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent) return;
    const name = `${req.name}-summary`;
    const desired = childOf(parent, { name }, { keys: Object.keys(parent.data ?? {}).sort().join(','), syncedAt: new Date().toISOString() });
    const existing = ctx.get<ConfigMap>('ConfigMap', req.namespace, name);
    if (!existing) await ctx.client.create(desired);
    else await ctx.client.update({ ...existing, data: desired.data });
  },
});
