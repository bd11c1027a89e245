import { parseRequirements, type Requirement } from './labelSelectorParser.ts';

// Label selectors as the API server parses them (apimachinery/pkg/labels): comma-separated
// requirements, all of which must hold. Supported: `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
// `k notin (a,b)`, `k` (exists), `!k` (does not exist), `k>n`, `k<n`.

type Labels = Readonly<Record<string, string>> | undefined;

export type { Requirement } from './labelSelectorParser.ts';

export interface LabelSelector {
  readonly requirements: readonly Requirement[];
  /** True when there are no requirements (everything matches). */
  readonly empty: boolean;
  matches(labels: Labels): boolean;
}

function holds(req: Requirement, labels: Labels): boolean {
  const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, req.key);
  const value = has ? labels[req.key] : undefined;
  switch (req.op) {
    case 'eq': return has && value === req.value;
    case 'neq': return !has || value !== req.value;
    case 'in': return has && req.values.includes(value ?? '');
    case 'notin': return !has || !req.values.includes(value ?? '');
    case 'exists': return has;
    case 'notexists': return !has;
    case 'gt': return has && Number.isInteger(Number(value)) && Number(value) > req.value;
    case 'lt': return has && Number.isInteger(Number(value)) && Number(value) < req.value;
  }
}

/** Parses a selector; throws ApiError 400 on a syntax error. Empty or undefined matches everything. */
export function parseLabelSelector(text: string | undefined): LabelSelector {
  return selectorOf(parseRequirements(text ?? ''));
}

/** A selector given as text or as labels that must all match (`{ app: 'web' }`), as a reconcile's `ctx.list` takes it. */
export function toLabelSelector(input: string | Readonly<Record<string, string>> | undefined): LabelSelector {
  if (typeof input === 'string' || input === undefined) return parseLabelSelector(input);
  return selectorOf(Object.entries(input).map(([key, value]): Requirement => ({ op: 'eq', key, value })));
}

function selectorOf(requirements: Requirement[]): LabelSelector {
  return {
    requirements,
    empty: requirements.length === 0,
    matches: (labels) => requirements.every((r) => holds(r, labels)),
  };
}

/** A metav1.LabelSelector ({matchLabels, matchExpressions}) as selector text, e.g. for /scale's status.selector. */
export function labelSelectorText(selector: unknown): string {
  if (typeof selector !== 'object' || selector === null) return '';
  const s = selector as { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] };
  const parts = Object.entries(s.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of s.matchExpressions ?? []) {
    const values = (e.values ?? []).join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.join(',');
}
