// The looper: it marks each parent as seen by this controller, with the time it last looked
// (check.example.com/seen-at).
//
// Planted bug (not idempotent, never quiet): it writes the time on every reconcile, and its own
// write is an event of the parent it watches, which it reconciles, and writes again: it never
// stops writing.
import { defineController } from 'controller-lab';
import { annotated, CONFIGMAP, parentOf } from '../family.ts';

const SEEN_AT = 'check.example.com/seen-at';

export default defineController({
  name: 'looper',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent) return;
    await ctx.client.update(annotated(parent, SEEN_AT, new Date().toISOString()));
  },
});
