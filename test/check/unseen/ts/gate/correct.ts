// A gate that polls: a Gate lists ConfigMaps it waits for (spec.requires); until they all exist its
// status says Waiting and which are missing, and it looks again a second later (it does not watch
// ConfigMaps' events, as a controller polling something outside the cluster would not: its
// informer only fills the cache, its map enqueues nothing); then Open. The
// status is written only when it changes, from the object just read, so a stale copy is refused
// (409) and retried.
import { defineController, type KubeObject } from 'controller-lab';

interface Gate extends KubeObject {
  spec?: { requires?: string[] };
  status?: { phase?: string; missing?: string[]; observedGeneration?: number };
}

export default defineController({
  name: 'gate',
  for: { apiVersion: 'lab.example.com/v1', kind: 'Gate' },
  watches: [{ apiVersion: 'v1', kind: 'ConfigMap', map: () => [] }],
  async reconcile(req, ctx) {
    const gate = ctx.get<Gate>('Gate', req.namespace, req.name);
    if (!gate || gate.metadata.deletionTimestamp) return;
    const missing = (gate.spec?.requires ?? []).filter((name) => !ctx.get('ConfigMap', req.namespace, name)).sort();
    const status = { phase: missing.length ? 'Waiting' : 'Open', missing, observedGeneration: gate.metadata.generation };
    if (JSON.stringify(status) !== JSON.stringify({ phase: gate.status?.phase, missing: gate.status?.missing ?? [], observedGeneration: gate.status?.observedGeneration })) {
      await ctx.client.updateStatus({ ...gate, status });
      ctx.log.info(`gate ${status.phase}`, { missing });
    }
    return missing.length ? { requeueAfter: 1000 } : undefined;
  },
});
