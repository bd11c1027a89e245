// A namespace provisioner (see correct.ts), written to skip work: the Namespace's annotation says
// which team it was provisioned for, and a Namespace already annotated for its team is left alone.
// It annotates first, then creates the team's objects — so a provisioner stopped between the
// annotation and the objects finds, once restarted, a Namespace that says it is done and is not.
import { defineController, type KubeObject } from 'controller-lab';

const TEAM_LABEL = 'team';
const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'namespace-provisioner' };
const PROVISIONED = 'provisioner.example.com/provisioned-for';

const QUOTA = { apiVersion: 'v1', kind: 'ResourceQuota' };
const BINDING = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding' };
const CONFIGMAP = { apiVersion: 'v1', kind: 'ConfigMap' };

function ownedBy(ns: KubeObject) {
  return [{ apiVersion: 'v1', kind: 'Namespace', name: ns.metadata.name ?? '', uid: ns.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }];
}

function defaults(ns: KubeObject, team: string): KubeObject[] {
  const namespace = ns.metadata.name ?? '';
  const metadata = (name: string) => ({ name, namespace, labels: { ...MANAGED_BY, team }, ownerReferences: ownedBy(ns) });
  const big = ns.metadata.labels?.['tier'] === 'large';
  return [
    { ...QUOTA, metadata: metadata('team-quota'), spec: { hard: { pods: big ? '50' : '10', 'requests.cpu': big ? '16' : '4', 'requests.memory': big ? '64Gi' : '8Gi' } } },
    {
      ...BINDING,
      metadata: metadata('team-edit'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: `team:${team}` }],
    },
    { ...CONFIGMAP, metadata: metadata('team-info'), data: { team, contact: `${team}@example.com` } },
  ];
}

export default defineController({
  name: 'namespace-provisioner',
  for: { apiVersion: 'v1', kind: 'Namespace' },
  owns: [QUOTA, BINDING, CONFIGMAP],

  async reconcile(req, ctx) {
    const ns = ctx.get('Namespace', '', req.name);
    if (!ns || ns.metadata.deletionTimestamp) return;
    const namespace = ns.metadata.name ?? '';
    const team = ns.metadata.labels?.[TEAM_LABEL];

    if (!team) {
      for (const kind of [QUOTA, BINDING, CONFIGMAP]) {
        for (const o of ctx.list(kind, { namespace, labelSelector: MANAGED_BY })) {
          await ctx.client.delete(o).catch((err: { code?: number }) => {
            if (err.code !== 404) throw err;
          });
        }
      }
      if (ns.metadata.annotations?.[PROVISIONED] !== undefined) {
        await ctx.client.patch({ apiVersion: 'v1', kind: 'Namespace', name: namespace }, { metadata: { annotations: { [PROVISIONED]: null } } });
      }
      return;
    }

    if (ns.metadata.annotations?.[PROVISIONED] === team) return; // done already

    ctx.log.info(`provisioning ${namespace} for ${team}`);
    await ctx.client.patch({ apiVersion: 'v1', kind: 'Namespace', name: namespace }, { metadata: { annotations: { [PROVISIONED]: team } } });
    for (const want of defaults(ns, team)) {
      const have = ctx.get(want.kind ?? '', namespace, want.metadata.name ?? '');
      if (!have) {
        await ctx.client.create(want).catch((err: { code?: number }) => {
          if (err.code !== 409) throw err;
        });
      } else {
        await ctx.client.update({ ...have, ...want, metadata: { ...have.metadata, labels: want.metadata.labels, ownerReferences: want.metadata.ownerReferences } });
      }
    }
  },
});
