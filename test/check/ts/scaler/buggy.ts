// The scaler: a parent's `data.nodes` says how many members it runs, `<parent>-0`, `<parent>-1`…
// (a cluster's nodes, in a real operator). A member joins once made, and the parent records it as
// joined (annotation check.example.com/joined-N); on a scale-down, only a member recorded as
// joined is taken away gracefully (a member still joining is left to finish).
//
// Planted bug (intermediate state): it records a member as joined only right after making it.
// Killed between the two, it restarts to a member that exists and is not recorded, and, the member
// being there, never records it: a later scale-down leaves that member for good (Sieve found this
// in nifikop: a Pod made, the crash before its state was set, and its graceful downscale never
// done).
import { defineController } from 'controller-lab';
import { alreadyExists, childOf, CONFIGMAP, parentOf } from '../family.ts';
import { joined, joinedMark, members, unmark } from './members.ts';

export default defineController({
  name: 'scaler',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent) return;
    const wanted = Number(parent.data?.nodes ?? '0');
    const ref = { ...CONFIGMAP, namespace: req.namespace, name: req.name };
    for (let i = 0; i < wanted; i++) {
      if (ctx.get('ConfigMap', req.namespace, `${req.name}-${i}`)) continue;
      await ctx.client.create(childOf(parent, { name: `${req.name}-${i}` }, { node: String(i) })).catch(alreadyExists);
      await ctx.client.patch(ref, joinedMark(i));
    }
    for (const member of members(ctx, parent)) {
      const i = Number(member.data?.node);
      if (i < wanted || !joined(parent, i)) continue;
      await ctx.client.delete(member);
      await ctx.client.patch(ref, unmark(i));
    }
  },
});
