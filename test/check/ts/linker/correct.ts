// The linker, fixed: it records the child's name in the parent first, then creates the child by
// that name. A crash between the two leaves a name to create, not a child to forget; and the
// record is an update at the parent's resourceVersion, so a reconcile on a cache older than the
// record gets 409 Conflict and creates nothing.
import { defineController } from 'controller-lab';
import { alreadyExists, annotated, childOf, CONFIGMAP, parentOf } from '../family.ts';

const CHILD = 'check.example.com/child';

export default defineController({
  name: 'linker',
  for: CONFIGMAP,
  async reconcile(req, ctx) {
    const parent = parentOf(req, ctx);
    if (!parent) return;
    let name = parent.metadata.annotations?.[CHILD];
    if (!name) {
      name = `${req.name}-${Math.random().toString(36).slice(2, 7)}`;
      await ctx.client.update(annotated(parent, CHILD, name));
    }
    if (ctx.get('ConfigMap', req.namespace, name)) return;
    await ctx.client.create(childOf(parent, { name }, { linked: 'true' })).catch(alreadyExists);
  },
});
