import { internalError } from '../../shared/apiErrors.ts';
import { labelSelectorText, parseLabelSelector } from '../../shared/labelSelector.ts';
import type { AdmissionAttributes, Invocation } from './admissionAttributes.ts';
import { matchConditionsHold } from './matchConditions.ts';
import type { Operation, Rule, Webhook } from './webhookConfigurations.ts';

// Which webhooks a request reaches, as kube-apiserver decides it: the namespace selector (on the
// labels of the request's namespace), the object selector (on the new or the old object's labels),
// then the rules (operation, group, version, resource/subresource, scope); with matchPolicy
// Equivalent a rule naming another served version of the same resource matches too, and the
// webhook is sent the object in that version; last, its matchConditions (matchConditions.ts).

function exactOrWildcard(items: readonly string[], wanted: string): boolean {
  return items.includes('*') || items.includes(wanted);
}

function scopeMatches(rule: Rule, a: Pick<AdmissionAttributes, 'group' | 'resource' | 'namespace'>): boolean {
  // A Namespace is cluster-scoped, though requests about one carry its name as their namespace.
  const isNamespace = a.group === '' && a.resource === 'namespaces';
  if (rule.scope === 'Namespaced') return !isNamespace && a.namespace !== '';
  if (rule.scope === 'Cluster') return isNamespace || a.namespace === '';
  return rule.scope === '*';
}

function resourceMatches(rule: Rule, resource: string, subresource: string): boolean {
  return rule.resources.some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
  });
}

/** Whether one rule matches the request at `version`, for one of `operations`. */
export function ruleMatches(rule: Rule, a: Pick<AdmissionAttributes, 'group' | 'resource' | 'subresource' | 'namespace'>, version: string, operations: readonly Operation[]): boolean {
  return scopeMatches(rule, a)
    && operations.some((op) => rule.operations.includes('*') || rule.operations.includes(op))
    && exactOrWildcard(rule.apiGroups, a.group)
    && exactOrWildcard(rule.apiVersions, version)
    && resourceMatches(rule, a.resource, a.subresource);
}

/** The version a webhook's rules take the request in, or undefined when none matches. */
export function matchedVersion(webhook: Webhook, a: AdmissionAttributes, operations: readonly Operation[] = [a.operation]): string | undefined {
  if (webhook.rules.some((r) => ruleMatches(r, a, a.version, operations))) return a.version;
  if (webhook.matchPolicy !== 'Equivalent') return undefined;
  // Earlier rules first, as kube-apiserver honours them.
  for (const rule of webhook.rules) {
    for (const version of a.servedVersions) {
      if (version !== a.version && ruleMatches(rule, a, version, operations)) return version;
    }
  }
  return undefined;
}

function selectorMatches(webhook: Webhook, which: 'namespaceSelector' | 'objectSelector', labels: readonly (Readonly<Record<string, string>> | undefined)[]): boolean {
  let selector;
  try {
    selector = parseLabelSelector(labelSelectorText(webhook[which]));
  } catch (err) {
    throw internalError(`webhook "${webhook.name}": invalid ${which}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (selector.empty) return true;
  return labels.some((l) => selector.matches(l));
}

export interface MatchContext {
  /** The labels of a namespace; throws the API's 404 when it does not exist. */
  namespaceLabels(name: string): Readonly<Record<string, string>> | undefined;
  /** Who asks and whether it is a dry run: what matchConditions' `request` holds. */
  user: { username: string; groups: readonly string[] };
  dryRun: boolean;
}

function namespaceSelectorMatches(webhook: Webhook, a: AdmissionAttributes, ctx: MatchContext): boolean {
  const isNamespace = a.group === '' && a.resource === 'namespaces';
  // Objects of other cluster-scoped resources are never exempted by a namespace selector.
  if (a.namespace === '' && !isNamespace) return true;
  if (labelSelectorText(webhook.namespaceSelector) === '') return true;
  // A Namespace being created or updated is matched on its new labels (it is not stored yet).
  const labels = isNamespace && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE')
    ? a.object?.metadata?.labels
    : ctx.namespaceLabels(a.namespace);
  return selectorMatches(webhook, 'namespaceSelector', [labels ?? {}]);
}

/** The webhook's invocation for this request, or undefined when it does not apply. */
export function invocationFor(webhook: Webhook, a: AdmissionAttributes, ctx: MatchContext): Invocation | undefined {
  const version = matchedVersion(webhook, a);
  if (version === undefined) return undefined;
  if (!namespaceSelectorMatches(webhook, a, ctx)) return undefined;
  const objects = [a.object, a.oldObject].filter((o) => o !== undefined);
  // An empty selector matches even without an object; any other needs the new or the old one to match.
  if (!selectorMatches(webhook, 'objectSelector', objects.map((o) => o.metadata?.labels ?? {}))) return undefined;
  if (!matchConditionsHold(webhook, a, version, ctx.user, ctx.dryRun)) return undefined;
  return { webhook, version };
}
