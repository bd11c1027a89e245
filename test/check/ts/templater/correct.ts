// The templater, fixed: a child that exists is compared with its parent and brought up to date,
// so a copy made from a stale view of the parent is corrected once the parent's change is seen.
import { defineController } from 'controller-lab';
import { alreadyExists, childOf, CONFIGMAP, parentOf, type ConfigMap } from '../family.ts';

export default defineController({
  name: 'templater',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent) return;
    const name = `${req.name}-rendered`;
    const want = { ...parent.data };
    const child = ctx.get<ConfigMap>('ConfigMap', req.namespace, name);
    if (!child) {
      await ctx.client.create(childOf(parent, { name }, want)).catch(alreadyExists);
      return;
    }
    if (!sameData(child.data ?? {}, want)) await ctx.client.update({ ...child, data: want });
  },
});

function sameData(a: Record<string, string>, b: Record<string, string>): boolean {
  return Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
}
