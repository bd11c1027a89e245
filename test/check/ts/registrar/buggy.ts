// The DNS registrar (test/check/ts/patterns/registrar.ts is its correct twin): a Service annotated
// dns.example.com/hostname=NAME gets a record, a ConfigMap NAME in namespace `dns`.
//
// Planted bug (intermediate state): it remembers, in its process, the hostname it registered last
// for each Service, and when the hostname changes it deletes the record that memory names. Killed
// after someone changes the hostname and before it reconciles that, it starts with no memory and
// the old record is left for good; the records' labels, which the cluster keeps, would have said.
import { defineController, type KubeObject } from 'controller-lab';

const HOSTNAME = 'dns.example.com/hostname';
const FINALIZER = 'dns.example.com/record';
const ZONE = 'dns';
const SVC_NS = 'dns.example.com/service-namespace';
const SVC_NAME = 'dns.example.com/service-name';

interface Service extends KubeObject {
  spec?: { ports?: { port: number }[] };
}

/** Service `namespace/name` → the hostname registered for it last. */
const registered = new Map<string, string>();

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
    const key = `${req.namespace}/${req.name}`;
    const svc = ctx.get<Service>('Service', req.namespace, req.name);
    if (!svc) {
      registered.delete(key);
      return;
    }
    const hostname = svc.metadata.deletionTimestamp ? undefined : svc.metadata.annotations?.[HOSTNAME];
    const finalizers = svc.metadata.finalizers ?? [];

    if (!hostname) {
      const records = ctx.list('ConfigMap', { namespace: ZONE, labelSelector: { [SVC_NS]: req.namespace, [SVC_NAME]: req.name } });
      for (const r of records) await ctx.client.delete(r).catch(notFound);
      registered.delete(key);
      if (finalizers.includes(FINALIZER)) {
        await ctx.client.update({ ...svc, metadata: { ...svc.metadata, finalizers: finalizers.filter((f) => f !== FINALIZER) } });
      }
      return;
    }

    if (!finalizers.includes(FINALIZER)) {
      await ctx.client.update({ ...svc, metadata: { ...svc.metadata, finalizers: [...finalizers, FINALIZER] } });
      return;
    }
    // The bug: the old record is found by memory, not by the labels the cluster keeps.
    const old = registered.get(key);
    if (old && old !== hostname) {
      const stale = ctx.get('ConfigMap', ZONE, old);
      if (stale) await ctx.client.delete(stale).catch(notFound);
    }
    const data = { target: `${req.name}.${req.namespace}.svc`, port: String(svc.spec?.ports?.[0]?.port ?? '') };
    const record = ctx.get<KubeObject & { data?: Record<string, string> }>('ConfigMap', ZONE, hostname);
    if (!record) {
      await ctx.client
        .create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: hostname, namespace: ZONE, labels: { [SVC_NS]: req.namespace, [SVC_NAME]: req.name } }, data })
        .catch((err: { code?: number }) => {
          if (err.code !== 409) throw err;
        });
    } else if (JSON.stringify(record.data) !== JSON.stringify(data)) {
      await ctx.client.update({ ...record, data });
    }
    registered.set(key, hostname);
  },
});
