import type { KubeObject } from '../../shared/k8s.ts';
import type { InProcessCluster } from '../simObjects.ts';

// The admission webhooks the cluster's Mutating/ValidatingWebhookConfigurations declare, as
// kube-apiserver's webhook source holds them: configurations in name order, each one's webhooks in
// their order, with the v1 defaults applied on reading (objects stored before the API defaulted
// them lack failurePolicy, timeoutSeconds…). Re-read only after a configuration was written.

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface Rule {
  operations: string[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  /** '*', 'Cluster' or 'Namespaced'. */
  scope: string;
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path: string;
  port: number;
}

export interface Webhook {
  type: 'mutating' | 'validating';
  configuration: string;
  name: string;
  /** Unique within the cluster's webhooks: what reinvocation remembers a webhook by. */
  id: string;
  rules: Rule[];
  failurePolicy: 'Fail' | 'Ignore';
  matchPolicy: 'Exact' | 'Equivalent';
  namespaceSelector: unknown;
  objectSelector: unknown;
  /** Absent in objects written without it (v1 requires it): a dry run then cannot call the webhook. */
  sideEffects: string | undefined;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
  reinvocationPolicy: 'Never' | 'IfNeeded';
  url: string | undefined;
  service: ServiceReference | undefined;
  /** PEM, decoded from the base64 caBundle; '' for the system's roots. */
  caPem: string;
  matchConditions: { name: string; expression: string }[];
}

export interface WebhookSet {
  mutating: readonly Webhook[];
  validating: readonly Webhook[];
}

const GROUP = 'admissionregistration.k8s.io';
const RESOURCES = { mutating: 'mutatingwebhookconfigurations', validating: 'validatingwebhookconfigurations' } as const;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function rulesOf(value: unknown): Rule[] {
  if (!Array.isArray(value)) return [];
  return value.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null).map((r) => ({
    operations: strings(r['operations']),
    apiGroups: strings(r['apiGroups']),
    apiVersions: strings(r['apiVersions']),
    resources: strings(r['resources']),
    scope: text(r['scope']) ?? '*',
  }));
}

function serviceOf(value: unknown): ServiceReference | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const s = value as Record<string, unknown>;
  return {
    namespace: text(s['namespace']) ?? '',
    name: text(s['name']) ?? '',
    path: text(s['path']) ?? '/',
    port: typeof s['port'] === 'number' ? s['port'] : 443,
  };
}

function caPemOf(caBundle: unknown): string {
  if (typeof caBundle !== 'string' || caBundle === '') return '';
  return Buffer.from(caBundle, 'base64').toString('utf8');
}

function webhookOf(type: Webhook['type'], configuration: KubeObject, raw: Record<string, unknown>, index: number): Webhook {
  const client = (typeof raw['clientConfig'] === 'object' && raw['clientConfig'] !== null ? raw['clientConfig'] : {}) as Record<string, unknown>;
  const timeout = raw['timeoutSeconds'];
  const name = configuration.metadata.name ?? '';
  return {
    type,
    configuration: name,
    name: text(raw['name']) ?? '',
    id: `${type}/${name}/${index}`,
    rules: rulesOf(raw['rules']),
    failurePolicy: raw['failurePolicy'] === 'Ignore' ? 'Ignore' : 'Fail',
    matchPolicy: raw['matchPolicy'] === 'Exact' ? 'Exact' : 'Equivalent',
    namespaceSelector: raw['namespaceSelector'] ?? {},
    objectSelector: raw['objectSelector'] ?? {},
    sideEffects: text(raw['sideEffects']),
    timeoutSeconds: typeof timeout === 'number' && timeout > 0 ? timeout : 10,
    admissionReviewVersions: strings(raw['admissionReviewVersions']),
    reinvocationPolicy: raw['reinvocationPolicy'] === 'IfNeeded' ? 'IfNeeded' : 'Never',
    url: text(client['url']),
    service: serviceOf(client['service']),
    caPem: caPemOf(client['caBundle']),
    matchConditions: Array.isArray(raw['matchConditions'])
      ? raw['matchConditions'].map((c: { name?: unknown; expression?: unknown }) => ({ name: text(c?.name) ?? '', expression: text(c?.expression) ?? '' }))
      : [],
  };
}

function read(cluster: InProcessCluster, type: Webhook['type']): Webhook[] {
  let items: KubeObject[];
  try {
    items = cluster.list({ group: GROUP, version: 'v1', resource: RESOURCES[type] }, {}).items.map((i) => i.object as KubeObject);
  } catch {
    return []; // the group is not served: no webhooks
  }
  const sorted = [...items].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  const out: Webhook[] = [];
  for (const configuration of sorted) {
    const hooks = (configuration as { webhooks?: unknown }).webhooks;
    if (!Array.isArray(hooks)) continue;
    hooks.forEach((raw: unknown, index) => {
      if (typeof raw === 'object' && raw !== null) out.push(webhookOf(type, configuration, raw as Record<string, unknown>, index));
    });
  }
  return out;
}

class WebhookSource {
  private current: WebhookSet | undefined;
  private readonly cluster: InProcessCluster;

  constructor(cluster: InProcessCluster) {
    this.cluster = cluster;
    cluster.onWrite((w) => {
      if (w.group === GROUP && (w.resource === RESOURCES.mutating || w.resource === RESOURCES.validating)) this.current = undefined;
    });
  }

  webhooks(): WebhookSet {
    this.current ??= { mutating: read(this.cluster, 'mutating'), validating: read(this.cluster, 'validating') };
    return this.current;
  }
}

const sources = new WeakMap<InProcessCluster, WebhookSource>();

/** The cluster's admission webhooks, in the order kube-apiserver calls them. */
export function webhooksOf(cluster: InProcessCluster): WebhookSet {
  let source = sources.get(cluster);
  if (!source) {
    source = new WebhookSource(cluster);
    sources.set(cluster, source);
  }
  return source.webhooks();
}
