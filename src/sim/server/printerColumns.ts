// A custom resource's columns come from its CRD version's additionalPrinterColumns, read with the
// JSONPath subset CRDs use in practice: `.spec.replicas`, `.items[0].name`,
// `.status.conditions[?(@.type=="Ready")].status`. Dates print as ages, like the apiextensions server.
import type { KubeObject } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { AGE_COLUMN, humanDuration, NAME_COLUMN, type TableColumn } from '../vocabulary/tableCells.ts';
import { columnsFor } from './tableColumns.ts';

type Step = { field: string } | { index: number } | { filterField: string; equals: string };

const STEP = /^\.([A-Za-z0-9_-]+)|^\[(\d+)\]|^\[\?\(@\.([A-Za-z0-9_.-]+)\s*==\s*["']([^"']*)["']\)\]/;

/** Parses a JSONPath of the subset above (an optional `{…}` around it); undefined when outside it. */
export function parseJsonPath(path: string): Step[] | undefined {
  let rest = path.trim();
  if (rest.startsWith('{') && rest.endsWith('}')) rest = rest.slice(1, -1).trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const steps: Step[] = [];
  while (rest !== '') {
    const m = STEP.exec(rest);
    if (!m) return undefined;
    if (m[1] !== undefined) steps.push({ field: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else steps.push({ filterField: m[3]!, equals: m[4]! });
    rest = rest.slice(m[0].length);
  }
  return steps;
}

function fieldAt(value: unknown, dotted: string): unknown {
  let cur = value;
  for (const part of dotted.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Every value the path reaches (filters may match several). */
export function evaluateJsonPath(obj: unknown, steps: Step[]): unknown[] {
  let current: unknown[] = [obj];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if ('field' in step) {
        if (typeof v === 'object' && v !== null && !Array.isArray(v) && step.field in v) next.push((v as Record<string, unknown>)[step.field]);
      } else if ('index' in step) {
        if (Array.isArray(v) && step.index < v.length) next.push(v[step.index]);
      } else if (Array.isArray(v)) {
        for (const item of v) if (String(fieldAt(item, step.filterField)) === step.equals) next.push(item);
      }
    }
    current = next;
  }
  return current;
}

interface PrinterColumnSpec {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

/** A value as Go's json.Marshal prints it: map keys sorted, `<>&` escaped. */
function goJson(v: unknown): string {
  const sorted = (x: unknown): unknown => Array.isArray(x) ? x.map(sorted)
    : typeof x === 'object' && x !== null ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sorted((x as Record<string, unknown>)[k])])) : x;
  return JSON.stringify(sorted(v)).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/**
 * A cell as the apiextensions server's table convertor makes it: from the path's first value only,
 * null when the path finds nothing or the value is not of the column's type; a string column prints
 * any value (objects and lists as JSON), a date column prints an age.
 */
function cellText(values: unknown[], type: string, now: number): unknown {
  const v = values[0];
  if (v === undefined || v === null) return null;
  switch (type) {
    case 'string':
      return typeof v === 'object' ? goJson(v) : String(v);
    case 'integer':
      return typeof v === 'number' ? Math.trunc(v) : null;
    case 'number':
      return typeof v === 'number' ? v : null;
    case 'boolean':
      return typeof v === 'boolean' ? v : null;
    case 'date': {
      if (typeof v !== 'string') return null;
      if (v === '' || v === 'null') return '<unknown>';
      if (!RFC3339.test(v) || Number.isNaN(Date.parse(v))) return '<invalid>';
      const age = now - Date.parse(v);
      return age < -1000 ? '<invalid>' : humanDuration(age);
    }
    default:
      return null;
  }
}

/** The Table columns a CRD declares for `version`, or undefined when it declares none. */
export function crdPrinterColumns(crd: Readonly<KubeObject> | undefined, version: string, nameColumn: TableColumn): TableColumn[] | undefined {
  const versions = (crd?.['spec'] as { versions?: { name?: string; additionalPrinterColumns?: PrinterColumnSpec[] }[] } | undefined)?.versions;
  const declared = versions?.find((v) => v.name === version)?.additionalPrinterColumns;
  if (!declared || declared.length === 0) return undefined;
  const columns: TableColumn[] = [nameColumn];
  for (const c of declared) {
    const steps = c.jsonPath ? parseJsonPath(c.jsonPath) : undefined;
    const type = c.type ?? 'string';
    columns.push({
      name: c.name ?? '',
      type: type as TableColumn['type'],
      format: c.format ?? '',
      description: c.description ?? '',
      priority: c.priority ?? 0,
      cell: (obj, now) => (steps ? cellText(evaluateJsonPath(obj, steps), type, now) : '<invalid jsonPath>'),
    });
  }
  return columns;
}

/**
 * The columns for one resource: built-in kinds have their printers; a custom resource has its CRD's
 * printer columns, else NAME and AGE. `crdNamed` finds a CRD by name (`plural.group`).
 */
export function tableColumnsFor(info: ResourceInfo, crdNamed: (name: string) => Readonly<KubeObject> | undefined): TableColumn[] {
  if (info.source !== 'crd') return columnsFor(info.resource, info.group);
  return crdPrinterColumns(crdNamed(`${info.resource}.${info.group}`), info.version, NAME_COLUMN) ?? [NAME_COLUMN, AGE_COLUMN];
}
