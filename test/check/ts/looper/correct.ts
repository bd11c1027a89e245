// The looper, fixed: it marks a parent once, when it first sees it; what it writes then stays
// true, so its own write gives it nothing more to do.
import { defineController } from 'controller-lab';
import { annotated, CONFIGMAP, parentOf } from '../family.ts';

const SEEN_AT = 'check.example.com/seen-at';

export default defineController({
  name: 'looper',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent || parent.metadata.annotations?.[SEEN_AT]) return;
    await ctx.client.update(annotated(parent, SEEN_AT, new Date().toISOString()));
  },
});
