// Every Service gets a record in namespace `registry` named NS.NAME holding its uid and port (an
// entry in a service registry outside the cluster); when the Service is gone (its reconcile finds
// nothing) the record goes. The planted bug: a record found is only checked for its port, so a
// Service deleted and made again under the same name, its deletion never observed, keeps the old
// Service's uid in its record.
import { defineController, type KubeObject } from 'controller-lab';

interface Service extends KubeObject { spec?: { ports?: { port: number }[] } }

export default defineController({
  name: 'mirror',
  for: { apiVersion: 'v1', kind: 'Service' },
  watches: [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      map: (cm) => {
        const [namespace = '', ...rest] = (cm.metadata.name ?? '').split('.');
        return cm.metadata.namespace === 'registry' && cm.metadata.labels?.['mirror.example.com/record'] && rest.length ? [{ namespace, name: rest.join('.') }] : [];
      },
    },
  ],
  async reconcile(req, ctx) {
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'registry', name: `${req.namespace}.${req.name}` };
    const svc = ctx.get<Service>('Service', req.namespace, req.name);
    const record = ctx.get<KubeObject & { data?: Record<string, string> }>('ConfigMap', ref.namespace, ref.name);
    if (!svc) {
      if (record) await ctx.client.delete(ref).catch((e: { code?: number }) => { if (e.code !== 404) throw e; });
      return;
    }
    const data = { uid: svc.metadata.uid ?? '', port: String(svc.spec?.ports?.[0]?.port ?? '') };
    if (!record) {
      await ctx.client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ref.name, namespace: ref.namespace, labels: { 'mirror.example.com/record': 'true' } }, data });
    } else if (record.data?.port !== data.port) {
      await ctx.client.patch(ref, { data: { port: data.port } }, 'merge');
    }
  },
});
