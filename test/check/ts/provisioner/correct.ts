// A namespace provisioner, as a platform team writes one: every Namespace labelled `team=<name>`
// gets the team's defaults inside it — a ResourceQuota, a RoleBinding that gives the team's group
// `edit`, and a ConfigMap saying who owns the namespace. A Namespace whose label goes away loses
// them; one whose team changes gets the new team's. When all is in place the Namespace is
// annotated with the team it was provisioned for, for people reading it.
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

/** What a team's namespace holds, as this controller writes it. */
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

/** The fields this controller decides, to compare what is there with what it wants. */
function decided(o: KubeObject): string {
  const { spec, roleRef, subjects, data } = o as KubeObject & Record<string, unknown>;
  return JSON.stringify([o.metadata.labels ?? {}, spec ?? null, roleRef ?? null, subjects ?? null, data ?? null]);
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
      // Not (or no longer) a team's namespace: take back what we gave it.
      for (const kind of [QUOTA, BINDING, CONFIGMAP]) {
        for (const o of ctx.list(kind, { namespace, labelSelector: MANAGED_BY })) {
          ctx.log.info(`removing ${kind.kind} ${namespace}/${o.metadata.name}`);
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

    for (const want of defaults(ns, team)) {
      const have = ctx.get(want.kind ?? '', namespace, want.metadata.name ?? '');
      if (!have) {
        ctx.log.info(`creating ${want.kind} ${namespace}/${want.metadata.name}`, { team });
        await ctx.client.create(want).catch((err: { code?: number }) => {
          if (err.code !== 409) throw err; // there already, the cache just does not show it yet: the next event brings it
        });
      } else if (decided(have) !== decided({ ...have, ...want, metadata: { ...have.metadata, labels: want.metadata.labels } })) {
        ctx.log.info(`updating ${want.kind} ${namespace}/${want.metadata.name}`, { team });
        await ctx.client.update({ ...have, ...want, metadata: { ...have.metadata, labels: want.metadata.labels, ownerReferences: want.metadata.ownerReferences } });
      }
    }

    if (ns.metadata.annotations?.[PROVISIONED] !== team) {
      await ctx.client.patch({ apiVersion: 'v1', kind: 'Namespace', name: namespace }, { metadata: { annotations: { [PROVISIONED]: team } } });
    }
  },
});
