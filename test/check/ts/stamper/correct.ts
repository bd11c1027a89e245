// The stamper, fixed: it writes the summary only when what it says differs from what is there
// (and stamps the time of that change, not of every reconcile).
import { defineController } from 'controller-lab';
import { childOf, CONFIGMAP, parentOf, type ConfigMap } from '../family.ts';

export default defineController({
  name: 'stamper',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent) return;
    const name = `${req.name}-summary`;
    const keys = Object.keys(parent.data ?? {}).sort().join(',');
    const existing = ctx.get<ConfigMap>('ConfigMap', req.namespace, name);
    if (existing?.data?.keys === keys) return;
    const desired = childOf(parent, { name }, { keys, syncedAt: new Date().toISOString() });
    if (!existing) await ctx.client.create(desired);
    else await ctx.client.update({ ...existing, data: desired.data });
  },
});
