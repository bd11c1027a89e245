// The historian: it records every `data.version` a parent goes through in the parent's
// check.example.com/history annotation (`1,2,3`).
//
// Planted bug (unobserved state): it is edge-triggered — it appends the version it sees now when
// that is not the last one recorded. A version it never observes (two changes that reach it as
// one, a relist across them) is missing from the history for good.
import { defineController } from 'controller-lab';
import { annotated, CONFIGMAP, parentOf } from '../family.ts';

const HISTORY = 'check.example.com/history';

export default defineController({
  name: 'historian',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    const version = parent?.data?.version;
    if (!parent || !version) return;
    const history = (parent.metadata.annotations?.[HISTORY] ?? '').split(',').filter(Boolean);
    if (history.at(-1) === version) return;
    await ctx.client.update(annotated(parent, HISTORY, [...history, version].join(',')));
  },
});
