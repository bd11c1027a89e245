import { badRequest } from './apiErrors.ts';

// Label selectors as the API server parses them (apimachinery/pkg/labels): comma-separated
// requirements, all of which must hold. Supported: `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
// `k notin (a,b)`, `k` (exists), `!k` (does not exist), `k>n`, `k<n`.

type Labels = Readonly<Record<string, string>> | undefined;

export type Requirement =
  | { op: 'eq' | 'neq'; key: string; value: string }
  | { op: 'in' | 'notin'; key: string; values: string[] }
  | { op: 'exists' | 'notexists'; key: string }
  | { op: 'gt' | 'lt'; key: string; value: number };

export interface LabelSelector {
  readonly requirements: readonly Requirement[];
  /** True when there are no requirements (everything matches). */
  readonly empty: boolean;
  matches(labels: Labels): boolean;
}

const KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

function checkKey(key: string, text: string): string {
  if (!KEY.test(key)) throw badRequest(`unable to parse requirement: invalid label key "${key}" in selector "${text}"`);
  return key;
}

function checkValue(value: string, text: string): string {
  if (!VALUE.test(value)) throw badRequest(`unable to parse requirement: invalid label value: "${value}" in selector "${text}"`);
  return value;
}

/** Splits on commas that are not inside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function parseRequirement(raw: string, text: string): Requirement {
  const part = raw.trim();
  if (part === '') throw badRequest(`unable to parse requirement: found '', expected: identifier in selector "${text}"`);
  const setMatch = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(part);
  if (setMatch) {
    const values = (setMatch[3] ?? '').split(',').map((v) => checkValue(v.trim(), text));
    return { op: setMatch[2] === 'in' ? 'in' : 'notin', key: checkKey(setMatch[1] ?? '', text), values };
  }
  if (part.startsWith('!')) {
    const key = part.slice(1).trim();
    if (/[=<>!\s]/.test(key)) throw badRequest(`unable to parse requirement: "${part}" in selector "${text}"`);
    return { op: 'notexists', key: checkKey(key, text) };
  }
  const opMatch = /^([^=!<>\s]+)\s*(==|=|!=|<|>)\s*(.*)$/.exec(part);
  if (opMatch) {
    const key = checkKey(opMatch[1] ?? '', text);
    const value = (opMatch[3] ?? '').trim();
    const op = opMatch[2];
    if (op === '<' || op === '>') {
      const n = Number(value);
      if (value === '' || !Number.isInteger(n)) throw badRequest(`unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer in selector "${text}"`);
      return { op: op === '>' ? 'gt' : 'lt', key, value: n };
    }
    return { op: op === '!=' ? 'neq' : 'eq', key, value: checkValue(value, text) };
  }
  if (/\s/.test(part)) throw badRequest(`unable to parse requirement: "${part}" in selector "${text}"`);
  return { op: 'exists', key: checkKey(part, text) };
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
  const trimmed = (text ?? '').trim();
  return selectorOf(trimmed === '' ? [] : splitTopLevel(trimmed).map((p) => parseRequirement(p, trimmed)));
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
