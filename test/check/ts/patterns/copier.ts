// A correct controller in a common pattern: it copies each ConfigMap annotated
// copy.example.com/to=ns1,ns2 into the namespaces listed, and marks the source copied once every
// copy exists (a copy already there is fine: a restart may make it again).
import { defineController, type KubeObject } from 'controller-lab';

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

const TO = 'copy.example.com/to';
const COPIED = 'copy.example.com/copied';

export default defineController({
  name: 'copier',
  for: { apiVersion: 'v1', kind: 'ConfigMap' },
  async reconcile(req, ctx) {
    const source = ctx.get<ConfigMap>('ConfigMap', req.namespace, req.name);
    const targets = source?.metadata.annotations?.[TO];
    if (!source || !targets || source.metadata.annotations?.[COPIED] === 'true') return;
    for (const namespace of targets.split(',')) {
      try {
        await ctx.client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: source.metadata.name, namespace }, data: source.data ?? {} });
      } catch (err) {
        if ((err as { code?: number }).code !== 409) throw err;
      }
    }
    await ctx.client.update({ ...source, metadata: { ...source.metadata, annotations: { ...source.metadata.annotations, [COPIED]: 'true' } } });
  },
});
