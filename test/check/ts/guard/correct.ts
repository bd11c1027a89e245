// The Site guard, corrected: it remembers the resourceVersion of its own last write too, and a
// ConfigMap in the cache older than that is its cache lagging, not someone's edit: only a version
// past its own write that differs from it is an edit by hand.
import { defineController, type KubeObject } from 'controller-lab';

interface Site extends KubeObject {
  spec: { theme: string; replicas: number };
  status?: { tampered?: boolean };
}
type ConfigMap = KubeObject & { data?: Record<string, string> };

/** What this process last wrote into each Site's ConfigMap, and the resourceVersion it got. */
const lastWritten = new Map<string, { data: string; resourceVersion: number }>();

export default defineController({
  name: 'guard',
  for: { apiVersion: 'demo.example.com/v1', kind: 'Site' },
  owns: [{ apiVersion: 'v1', kind: 'ConfigMap' }],
  async reconcile(req, ctx) {
    const site = ctx.get<Site>('Site', req.namespace, req.name);
    if (!site) return;
    const key = `${req.namespace}/${req.name}`;
    const data = { theme: site.spec.theme, replicas: String(site.spec.replicas) };
    const cm = ctx.get<ConfigMap>('ConfigMap', req.namespace, `${req.name}-settings`);

    const written = lastWritten.get(key);
    const newer = cm && written !== undefined && Number(cm.metadata.resourceVersion) > written.resourceVersion;
    if (cm && newer && JSON.stringify(cm.data) !== written.data && !site.status?.tampered) {
      await ctx.client.updateStatus({ ...site, status: { tampered: true } });
    }

    if (!cm) {
      const owner = { apiVersion: 'demo.example.com/v1', kind: 'Site', name: req.name, uid: site.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
      const made = await ctx.client
        .create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${req.name}-settings`, namespace: req.namespace, ownerReferences: [owner] }, data })
        .catch((err: { code?: number }) => {
          if (err.code !== 409) throw err;
          return undefined;
        });
      if (made) lastWritten.set(key, { data: JSON.stringify(data), resourceVersion: Number(made.metadata.resourceVersion) });
    } else if (JSON.stringify(cm.data) !== JSON.stringify(data)) {
      const updated = await ctx.client.update({ ...cm, data });
      lastWritten.set(key, { data: JSON.stringify(data), resourceVersion: Number(updated.metadata.resourceVersion) });
    }
  },
});
