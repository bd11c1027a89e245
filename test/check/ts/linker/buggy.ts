// The linker: each parent gets one child, created with a generated name, and records the child's
// name in its check.example.com/child annotation.
//
// Planted bug (intermediate state): it decides from the annotation alone. Killed between creating
// the child and recording its name, it restarts to a parent with no annotation and creates a
// second child; the first is left behind, owned and unknown.
import { defineController } from 'controller-lab';
import { annotated, childOf, CONFIGMAP, parentOf } from '../family.ts';

const CHILD = 'check.example.com/child';

export default defineController({
  name: 'linker',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent || parent.metadata.annotations?.[CHILD]) return;
    const child = await ctx.client.create(childOf(parent, { generateName: `${req.name}-` }, { linked: 'true' }));
    await ctx.client.update(annotated(parent, CHILD, child.metadata.name ?? ''));
  },
});
