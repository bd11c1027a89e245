// The historian, fixed: it is level-based — it records the version it sees now
// (check.example.com/observed-version), which is the same whichever states it was shown on the
// way. A history of every version cannot come from watching: a watch shows a state, not every
// state; whoever makes the changes must keep it.
import { defineController } from 'controller-lab';
import { annotated, CONFIGMAP, parentOf } from '../family.ts';

const OBSERVED = 'check.example.com/observed-version';

export default defineController({
  name: 'historian',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    const version = parent?.data?.version;
    if (!parent || !version || parent.metadata.annotations?.[OBSERVED] === version) return;
    await ctx.client.update(annotated(parent, OBSERVED, version));
  },
});
