import type { KubeObject } from '../../shared/k8s.ts';
import type { ScopeRequirement } from './evaluators.ts';

// A quota's scopes as selector requirements: each of spec.scopes as `<scope> Exists`, then
// spec.scopeSelector's expressions (getScopeSelectorsFromQuota). An object is in the quota only if
// it matches them all.

export function scopesOf(quota: Readonly<KubeObject>): ScopeRequirement[] {
  const spec = (quota.spec ?? {}) as { scopes?: unknown; scopeSelector?: { matchExpressions?: unknown } };
  const out: ScopeRequirement[] = [];
  if (Array.isArray(spec.scopes)) for (const s of spec.scopes) if (typeof s === 'string') out.push({ scopeName: s, operator: 'Exists' });
  const expressions = spec.scopeSelector?.matchExpressions;
  if (Array.isArray(expressions)) for (const e of expressions) out.push(e as ScopeRequirement);
  return out;
}
