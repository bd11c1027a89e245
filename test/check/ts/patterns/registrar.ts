// A DNS registrar, as external-dns-like controllers are written: a Service annotated
// dns.example.com/hostname=NAME gets a record (a ConfigMap NAME in namespace `dns`, standing for an
// entry in a DNS zone outside the cluster). The record cannot be owned across namespaces, so a
// finalizer on the Service removes it first when the Service goes or stops asking; records are
// watched and mapped back to their Service, so one deleted by hand is made again, and a record
// left by an old hostname is removed.
import { defineController, type KubeObject } from 'controller-lab';

const HOSTNAME = 'dns.example.com/hostname';
const FINALIZER = 'dns.example.com/record';
const ZONE = 'dns';
const SVC_NS = 'dns.example.com/service-namespace';
const SVC_NAME = 'dns.example.com/service-name';

interface Service extends KubeObject {
  spec?: { ports?: { port: number }[] };
}

function notFound(err: unknown): void {
  if ((err as { code?: number }).code !== 404) throw err;
}

export default defineController({
  name: 'registrar',
  for: { apiVersion: 'v1', kind: 'Service' },
  watches: [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      map: (cm) => {
        const labels = cm.metadata.labels ?? {};
        return cm.metadata.namespace === ZONE && labels[SVC_NS] && labels[SVC_NAME] ? [{ namespace: labels[SVC_NS], name: labels[SVC_NAME] }] : [];
      },
    },
  ],
  async reconcile(req, ctx) {
    const svc = ctx.get<Service>('Service', req.namespace, req.name);
    if (!svc) return;
    const hostname = svc.metadata.deletionTimestamp ? undefined : svc.metadata.annotations?.[HOSTNAME];
    const records = ctx.list('ConfigMap', { namespace: ZONE, labelSelector: { [SVC_NS]: req.namespace, [SVC_NAME]: req.name } });
    const finalizers = svc.metadata.finalizers ?? [];

    if (!hostname) {
      // Going away or no longer asking: the records go first, then the finalizer.
      for (const r of records) await ctx.client.delete(r).catch(notFound);
      if (finalizers.includes(FINALIZER)) {
        await ctx.client.update({ ...svc, metadata: { ...svc.metadata, finalizers: finalizers.filter((f) => f !== FINALIZER) } });
      }
      return;
    }

    if (!finalizers.includes(FINALIZER)) {
      await ctx.client.update({ ...svc, metadata: { ...svc.metadata, finalizers: [...finalizers, FINALIZER] } });
      return; // the update's event brings the Service back, finalizer and all
    }
    for (const r of records) if (r.metadata.name !== hostname) await ctx.client.delete(r).catch(notFound);
    const data = { target: `${req.name}.${req.namespace}.svc`, port: String(svc.spec?.ports?.[0]?.port ?? '') };
    const record = records.find((r) => r.metadata.name === hostname) as (KubeObject & { data?: Record<string, string> }) | undefined;
    if (!record) {
      await ctx.client
        .create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: hostname, namespace: ZONE, labels: { [SVC_NS]: req.namespace, [SVC_NAME]: req.name } }, data })
        .catch((err: { code?: number }) => {
          if (err.code !== 409) throw err; // made already; the cache will show it
        });
    } else if (JSON.stringify(record.data) !== JSON.stringify(data)) {
      await ctx.client.update({ ...record, data });
    }
  },
});
