// The replicator, fixed: children are named `<parent>-<index>`, so a child the cache does not show
// yet is made again by name and the API server answers AlreadyExists: however stale the cache,
// there are never more than `data.replicas` children.
import { defineController } from 'controller-lab';
import { alreadyExists, childOf, childrenOf, CONFIGMAP, parentOf } from '../family.ts';

export default defineController({
  name: 'replicator',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent) return;
    const want = Number(parent.data?.replicas ?? 0);
    const have = new Set(childrenOf(ctx, parent).map((c) => c.metadata.name));
    for (let i = 0; i < want; i++) {
      const name = `${req.name}-${i}`;
      if (!have.has(name)) await ctx.client.create(childOf(parent, { name }, { shard: 'new' })).catch(alreadyExists);
    }
  },
});
