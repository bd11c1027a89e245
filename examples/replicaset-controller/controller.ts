// A replication controller, the one the first Kubernetes write-ups walk through: each ReplicaSet
// keeps `spec.replicas` Pods that it owns. Pods are named `<set>-<index>`, so creating one that
// already exists is harmless (the real controller uses "expectations" for the same reason: the
// cache may not show a Pod it created a moment ago). The simulated cluster runs no kubelet, so the
// Pods just exist.
import { defineController, type KubeObject } from 'controller-lab';

interface ReplicaSet extends KubeObject {
  spec: { replicas?: number; selector: { matchLabels?: Record<string, string> }; template: { metadata?: { labels?: Record<string, string> }; spec?: unknown } };
  status?: { replicas?: number };
}

export default defineController({
  name: 'replicaset-controller',
  for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  owns: [{ apiVersion: 'v1', kind: 'Pod' }],

  async reconcile(req, ctx) {
    const rs = ctx.get<ReplicaSet>('ReplicaSet', req.namespace, req.name);
    if (!rs) return; // deleted: the garbage collector removes the Pods it owned

    const owned = ctx
      .list('Pod', { namespace: req.namespace, labelSelector: rs.spec.selector.matchLabels ?? {} })
      .filter((p) => p.metadata.ownerReferences?.some((o) => o.controller && o.uid === rs.metadata.uid))
      .filter((p) => !p.metadata.deletionTimestamp);
    const want = rs.spec.replicas ?? 1;
    const names = new Set(owned.map((p) => p.metadata.name));

    for (let i = 0; names.size < want; i++) {
      const name = `${req.name}-${i}`;
      if (names.has(name)) continue;
      ctx.log.info(`creating ${name}`, { want, have: names.size });
      await ctx.client.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace: req.namespace,
          labels: { ...rs.spec.template.metadata?.labels },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: req.name, uid: rs.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
        },
        spec: rs.spec.template.spec ?? { containers: [{ name: 'main', image: 'nginx' }] },
      }).catch((err: { code?: number }) => {
        if (err.code !== 409) throw err; // already there: fine
      });
      names.add(name);
    }

    // Too many: remove the highest-numbered ones first.
    const extra = owned.sort((a, b) => (b.metadata.name ?? '').localeCompare(a.metadata.name ?? '', undefined, { numeric: true })).slice(0, Math.max(0, owned.length - want));
    for (const pod of extra) {
      ctx.log.info(`deleting ${pod.metadata.name}`, { want, have: owned.length });
      await ctx.client.delete(pod);
    }

    const replicas = Math.min(names.size, want);
    if (rs.status?.replicas !== replicas) {
      await ctx.client.updateStatus({ ...rs, status: { ...rs.status, replicas } });
    }
  },
});
