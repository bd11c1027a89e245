// Label selectors as the API server reads them (`=`, `==`, `!=`, `in`, `notin`, exists, `!key`), for
// the cache readers a reconcile uses: `ctx.list(kind, { labelSelector })`.

type Requirement = (labels: Record<string, string>) => boolean;

export type LabelSelectorInput = string | Record<string, string> | undefined;

export function compileLabelSelector(input: LabelSelectorInput): Requirement {
  if (input === undefined) return () => true;
  if (typeof input !== 'string') {
    const pairs = Object.entries(input);
    return (labels) => pairs.every(([k, v]) => labels[k] === v);
  }
  const reqs = splitTopLevel(input).map(parseRequirement);
  return (labels) => reqs.every((r) => r(labels));
}

export function matchesLabels(labels: Record<string, string> | undefined, input: LabelSelectorInput): boolean {
  return compileLabelSelector(input)(labels ?? {});
}

// Commas inside `in (a,b)` do not split requirements.
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((p) => p.trim()).filter((p) => p !== '');
}

function parseRequirement(text: string): Requirement {
  const set = /^([\w./-]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(text);
  if (set) {
    const [, key, op, list] = set as unknown as [string, string, string, string];
    const values = new Set(list.split(',').map((v) => v.trim()).filter(Boolean));
    return op === 'in' ? (l) => l[key] !== undefined && values.has(l[key]) : (l) => l[key] === undefined || !values.has(l[key]);
  }
  const cmp = /^([\w./-]+)\s*(==|=|!=)\s*([\w./-]*)$/.exec(text);
  if (cmp) {
    const [, key, op, value] = cmp as unknown as [string, string, string, string];
    return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
  }
  const notExists = /^!\s*([\w./-]+)$/.exec(text);
  if (notExists) {
    const key = notExists[1] as string;
    return (l) => l[key] === undefined;
  }
  if (/^[\w./-]+$/.test(text)) return (l) => l[text] !== undefined;
  throw new Error(`invalid label selector requirement: ${text}`);
}
