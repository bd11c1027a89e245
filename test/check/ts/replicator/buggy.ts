// The replicator: each parent keeps `data.replicas` children. A child holds data once made, so the
// replicator never removes one; it only makes the missing ones, when the parent changes (it does
// not watch the children: nobody else touches them).
//
// Planted bug (stale state): it counts the children in its cache and creates the missing ones with
// generated names. A reconcile on a cache that does not show its own last creates yet counts too
// few and makes more children than asked — and nothing ever removes them.
import { defineController } from 'controller-lab';
import { childOf, childrenOf, CONFIGMAP, parentOf } from '../family.ts';

export default defineController({
  name: 'replicator',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent) return;
    const want = Number(parent.data?.replicas ?? 0);
    for (let have = childrenOf(ctx, parent).length; have < want; have++) {
      await ctx.client.create(childOf(parent, { generateName: `${req.name}-` }, { shard: 'new' }));
    }
  },
});
