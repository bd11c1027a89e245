import { defineController } from '../../../../src/controllerProtocol/api.ts';
import type { KubeObject } from '../../../../src/shared/k8s.ts';

// The controller the debugger's tests step through: for every ConfigMap it writes a Secret named
// after the ConfigMap and the resourceVersion it saw (one write per reconcile, easy to find in the
// cluster), and it fails on a ConfigMap whose data says `fail`.

export default defineController({
  name: 'mirror',
  for: { apiVersion: 'v1', kind: 'ConfigMap' },
  async reconcile(request, ctx) {
    const cm = ctx.get<KubeObject & { data?: Record<string, string> }>('ConfigMap', request.namespace, request.name);
    if (!cm) return;
    if (cm.data?.fail) throw new Error(`cannot mirror ${request.name}: ${cm.data.fail}`);
    ctx.log.info('mirroring', { rv: cm.metadata.resourceVersion });
    await ctx.client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: request.namespace, name: `${request.name}-rv${cm.metadata.resourceVersion}` } });
  },
});
