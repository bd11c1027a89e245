// API Priority and Fairness as clients can see it: every request is classified by the FlowSchemas
// (lowest matchingPrecedence first, then by name; one whose priority level is missing is skipped)
// and its answer names the schema and the level by UID in kube-apiserver's two headers; /metrics
// gives each level's nominal concurrency. The sim does not queue by level: its one in-flight limit
// stands for them all.
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../../shared/k8s.ts';
import type { RequestAttributes } from '../auth/requestAttributes.ts';
import type { SimClusterApi } from '../simCluster.ts';
import type { UserInfo } from '../vocabulary/userInfo.ts';

const FLOW_SCHEMAS = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'flowschemas' };
const PRIORITY_LEVELS = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'prioritylevelconfigurations' };
/** kube-apiserver's defaults: --max-requests-inflight 400 plus --max-mutating-requests-inflight 200, shared by the levels. */
const SERVER_CONCURRENCY = 600;

interface Subject { kind?: string; user?: { name?: string }; group?: { name?: string }; serviceAccount?: { name?: string; namespace?: string } }
interface ResourceRule { verbs?: string[]; apiGroups?: string[]; resources?: string[]; clusterScope?: boolean; namespaces?: string[] }
interface NonResourceRule { verbs?: string[]; nonResourceURLs?: string[] }
interface Rule { subjects?: Subject[]; resourceRules?: ResourceRule[]; nonResourceRules?: NonResourceRule[] }
interface SchemaSpec { matchingPrecedence?: number; priorityLevelConfiguration?: { name?: string }; rules?: Rule[] }

const has = (list: readonly string[] | undefined, value: string): boolean => !!list && (list.includes('*') || list.includes(value));

function subjectMatches(s: Subject, user: UserInfo): boolean {
  switch (s.kind) {
    case 'User': return s.user?.name === '*' || s.user?.name === user.username;
    case 'Group': return s.group?.name === '*' || user.groups.includes(s.group?.name ?? '');
    case 'ServiceAccount': {
      const prefix = `system:serviceaccount:${s.serviceAccount?.namespace ?? ''}:`;
      return user.username.startsWith(prefix) && (s.serviceAccount?.name === '*' || user.username === `${prefix}${s.serviceAccount?.name ?? ''}`);
    }
    default: return false;
  }
}

function resourceRuleMatches(r: ResourceRule, a: Extract<RequestAttributes, { resourceRequest: true }>): boolean {
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  if (!has(r.verbs, a.verb) || !has(r.apiGroups, a.apiGroup) || !has(r.resources, resource)) return false;
  return a.namespace === '' ? r.clusterScope === true : has(r.namespaces, a.namespace);
}

function nonResourceRuleMatches(r: NonResourceRule, a: Extract<RequestAttributes, { resourceRequest: false }>): boolean {
  if (!has(r.verbs, a.verb)) return false;
  return (r.nonResourceURLs ?? []).some((url) => url === '*' || url === a.path || (url.endsWith('/*') && (a.path === url.slice(0, -2) || a.path.startsWith(url.slice(0, -1)))));
}

function ruleMatches(rule: Rule, user: UserInfo, a: RequestAttributes): boolean {
  if (!(rule.subjects ?? []).some((s) => subjectMatches(s, user))) return false;
  return a.resourceRequest ? (rule.resourceRules ?? []).some((r) => resourceRuleMatches(r, a)) : (rule.nonResourceRules ?? []).some((r) => nonResourceRuleMatches(r, a));
}

const items = (cluster: SimClusterApi, gvr: typeof FLOW_SCHEMAS): KubeObject[] => cluster.list(gvr, {}).items.map((s) => s.object as KubeObject);

/** The FlowSchemas whose priority level exists, in the order they are matched, with their level's UID. */
interface MatchOrder { schemas: { uid: string; level: string; rules: Rule[] }[] }

/**
 * Every request is classified: the schemas are read and sorted again only after a write to the
 * flowcontrol group, not per request (that was ~10 µs of every answer).
 */
const matchOrders = new WeakMap<SimClusterApi, { current?: MatchOrder }>();

function matchOrder(cluster: SimClusterApi): MatchOrder {
  let cached = matchOrders.get(cluster);
  if (!cached) {
    const entry: { current?: MatchOrder } = {};
    cluster.onWrite((w) => {
      if (w.group === FLOW_SCHEMAS.group) entry.current = undefined;
    });
    matchOrders.set(cluster, entry);
    cached = entry;
  }
  return (cached.current ??= readMatchOrder(cluster));
}

function readMatchOrder(cluster: SimClusterApi): MatchOrder {
  const levels = new Map(items(cluster, PRIORITY_LEVELS).map((l) => [l.metadata.name ?? '', l.metadata.uid ?? '']));
  const schemas = items(cluster, FLOW_SCHEMAS)
    .map((s) => ({ s, spec: (s.spec ?? {}) as SchemaSpec }))
    .sort((x, y) => (x.spec.matchingPrecedence ?? 0) - (y.spec.matchingPrecedence ?? 0) || (x.s.metadata.name ?? '').localeCompare(y.s.metadata.name ?? ''))
    .flatMap(({ s, spec }) => {
      const level = levels.get(spec.priorityLevelConfiguration?.name ?? '');
      return level === undefined ? [] : [{ uid: s.metadata.uid ?? '', level, rules: spec.rules ?? [] }];
    });
  return { schemas };
}

/** The FlowSchema and priority level a request is classified into (their UIDs), or undefined when none matches. */
export function classifyRequest(cluster: SimClusterApi, user: UserInfo, a: RequestAttributes): { flowSchema: string; priorityLevel: string } | undefined {
  for (const schema of matchOrder(cluster).schemas) {
    if (schema.rules.some((r) => ruleMatches(r, user, a))) return { flowSchema: schema.uid, priorityLevel: schema.level };
  }
  return undefined;
}

/** Sets kube-apiserver's classification headers on an answer (none when the configuration cannot be read: the request's own handler says why). */
export function setClassificationHeaders(res: ServerResponse, cluster: SimClusterApi, user: UserInfo, a: RequestAttributes): void {
  let c: ReturnType<typeof classifyRequest>;
  try {
    c = classifyRequest(cluster, user, a);
  } catch {
    return;
  }
  if (!c) return;
  res.setHeader('X-Kubernetes-PF-FlowSchema-UID', c.flowSchema);
  res.setHeader('X-Kubernetes-PF-PriorityLevel-UID', c.priorityLevel);
}

/** /metrics in Prometheus' text format: each priority level's nominal concurrency limit, as kube-apiserver shares its seats out. */
export function flowControlMetrics(cluster: SimClusterApi): string {
  const limited = items(cluster, PRIORITY_LEVELS).map((l) => ({
    name: l.metadata.name ?? '',
    shares: (l.spec as { limited?: { nominalConcurrencyShares?: number } } | undefined)?.limited?.nominalConcurrencyShares,
  }));
  const total = limited.reduce((sum, l) => sum + (l.shares ?? 0), 0);
  const lines = [
    '# HELP apiserver_flowcontrol_nominal_limit_seats [BETA] Nominal number of execution seats configured for each priority level',
    '# TYPE apiserver_flowcontrol_nominal_limit_seats gauge',
    ...limited
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((l) => `apiserver_flowcontrol_nominal_limit_seats{priority_level="${l.name}"} ${l.shares === undefined || total === 0 ? 0 : Math.ceil((SERVER_CONCURRENCY * l.shares) / total)}`),
  ];
  return `${lines.join('\n')}\n`;
}
