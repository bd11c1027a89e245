// The mirror registrar, corrected: a record is the Service as it is now, its uid too, so a Service
// made again under its name corrects its record whether or not its deletion was seen.
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
    } else if (record.data?.port !== data.port || record.data?.uid !== data.uid) {
      await ctx.client.patch(ref, { data }, 'merge');
    }
  },
});
