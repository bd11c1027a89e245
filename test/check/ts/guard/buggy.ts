// A Site's settings are copied into a ConfigMap it owns (NAME-settings). A guard raises an alarm
// in the Site's status (tampered: true, for someone to look at) when the ConfigMap holds anything
// other than what the controller last wrote there: someone edited it by hand. The planted bug: what
// it last wrote is kept in memory and compared with the cache, which may not have its own write
// yet, so its own update looks like someone else's edit.
import { defineController, type KubeObject } from 'controller-lab';

interface Site extends KubeObject {
  spec: { theme: string; replicas: number };
  status?: { tampered?: boolean };
}
type ConfigMap = KubeObject & { data?: Record<string, string> };

/** What this process last wrote into each Site's ConfigMap. */
const lastWritten = new Map<string, string>();

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
    if (cm && written !== undefined && JSON.stringify(cm.data) !== written && !site.status?.tampered) {
      await ctx.client.updateStatus({ ...site, status: { tampered: true } });
    }

    if (!cm) {
      const owner = { apiVersion: 'demo.example.com/v1', kind: 'Site', name: req.name, uid: site.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
      await ctx.client
        .create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${req.name}-settings`, namespace: req.namespace, ownerReferences: [owner] }, data })
        .catch((err: { code?: number }) => {
          if (err.code !== 409) throw err;
        });
      lastWritten.set(key, JSON.stringify(data));
    } else if (JSON.stringify(cm.data) !== JSON.stringify(data)) {
      await ctx.client.update({ ...cm, data });
      lastWritten.set(key, JSON.stringify(data));
    }
  },
});
