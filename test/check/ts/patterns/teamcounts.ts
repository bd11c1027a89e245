// A team's status counts its members (ConfigMaps labelled team=NAME, data.ready "true" or not), as
// aggregating controllers are written: the Team's own events pass GenerationChangedPredicate, so
// its status writes do not reconcile it again, and its members' events map to their team (the old
// team too when a member moves). A status write refused with a conflict (its cache behind) is
// retried with backoff: that retry, not an event, is what shows it its own earlier write.
import { defineController, GenerationChangedPredicate, type KubeObject } from 'controller-lab';

interface Team extends KubeObject { status?: { members?: number; ready?: number; notReady?: string[] } }

export default defineController({
  name: 'team',
  for: { apiVersion: 'demo.example.com/v1', kind: 'Team', predicates: [GenerationChangedPredicate] },
  watches: [{ apiVersion: 'v1', kind: 'ConfigMap', map: (cm) => (cm.metadata.labels?.team ? [{ namespace: cm.metadata.namespace ?? '', name: cm.metadata.labels.team }] : []) }],
  async reconcile(req, ctx) {
    const team = ctx.get<Team>('Team', req.namespace, req.name);
    if (!team) return;
    const members = ctx.list<KubeObject & { data?: Record<string, string> }>('ConfigMap', { namespace: req.namespace, labelSelector: { team: req.name } });
    const ready = members.filter((m) => m.data?.ready === 'true').length;
    const notReady = members.filter((m) => m.data?.ready !== 'true').map((m) => m.metadata.name ?? '').sort();
    const status = { members: members.length, ready, notReady };
    if (JSON.stringify(status) === JSON.stringify({ members: team.status?.members, ready: team.status?.ready, notReady: team.status?.notReady })) return;
    await ctx.client.updateStatus({ ...team, status });
  },
});
