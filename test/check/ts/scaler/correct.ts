// The scaler, corrected (see buggy.ts): a member that exists and is not recorded as joined is
// recorded, whether this reconcile made it or an earlier start did; and a mark whose member is gone
// (a restart between taking it away and removing its mark) goes too.
import { defineController } from 'controller-lab';
import { alreadyExists, childOf, CONFIGMAP, parentOf } from '../family.ts';
import { joined, joinedMark, marked, members, unmark } from './members.ts';

export default defineController({
  name: 'scaler',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent) return;
    const wanted = Number(parent.data?.nodes ?? '0');
    const ref = { ...CONFIGMAP, namespace: req.namespace, name: req.name };
    for (let i = 0; i < wanted; i++) {
      if (!ctx.get('ConfigMap', req.namespace, `${req.name}-${i}`)) await ctx.client.create(childOf(parent, { name: `${req.name}-${i}` }, { node: String(i) })).catch(alreadyExists);
      if (!joined(parent, i)) await ctx.client.patch(ref, joinedMark(i));
    }
    const present = new Set(members(ctx, parent).map((m) => Number(m.data?.node)));
    for (const member of members(ctx, parent)) {
      const i = Number(member.data?.node);
      if (i < wanted || !joined(parent, i)) continue;
      await ctx.client.delete(member);
      await ctx.client.patch(ref, unmark(i));
    }
    for (const i of marked(parent)) if (i >= wanted && !present.has(i)) await ctx.client.patch(ref, unmark(i));
  },
});
