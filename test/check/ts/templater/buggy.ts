// The templater: each parent keeps one child, `<parent>-rendered`, holding a copy of its data. It
// does not watch the children (nobody is meant to edit them); a user who wants a copy made again
// deletes it and changes the parent in one go.
//
// Planted bug (stale state): it copies the parent's data only when the child is missing, and never
// compares a child that exists with its parent. Restarted against a cache from before the user's
// change of the parent (a lagging API server), it finds the child deleted and makes it from the
// parent as it was; once the cache catches up, the child is there, and the old copy stays for good.
import { defineController } from 'controller-lab';
import { alreadyExists, childOf, CONFIGMAP, parentOf, type ConfigMap } from '../family.ts';

export default defineController({
  name: 'templater',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent) return;
    const name = `${req.name}-rendered`;
    if (ctx.get<ConfigMap>('ConfigMap', req.namespace, name)) return;
    await ctx.client.create(childOf(parent, { name }, { ...parent.data })).catch(alreadyExists);
  },
});
