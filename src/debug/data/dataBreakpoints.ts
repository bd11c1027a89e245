import type { KubeObject } from '../../shared/k8s.ts';
import { compileCondition, idCounter, matchKey, parseBreakpointName, parseHitCondition, type NamePattern } from '../breakpoints.ts';
import { formatFieldPath, parseFieldPath, readField, sameValue, type FieldPath } from './fieldPath.ts';

// Data breakpoints on cluster state: a field of the objects a name pattern picks, and an optional
// condition on its new value, in the reconcile breakpoints' language (JavaScript):
//   `Deployment default/web .spec.replicas`        any change of web's replicas
//   `ConfigMap */app-* .data.mode == "off"`        a change that leaves mode "off" (`value == "off"`)
// The condition sees `value` (the field after the change), `old` (before), `obj` and `oldObj`.
// They come from function breakpoints with a field path (typed in the Breakpoints view) and from
// DAP data breakpoints ("Break on Value Change" on a field in the Variables view), whose data id is
// the same text.

export type DataBreakpointOrigin = 'function' | 'data';

export interface DataBreakpointSpec {
  text: string;
  condition?: string;
  hitCondition?: string;
}

export interface DataBreakpoint {
  id: number;
  spec: DataBreakpointSpec;
  verified: boolean;
  message?: string;
  hits: number;
}

/** One change of a watched field, as one cache delta made it. */
export interface FieldChange {
  breakpointId: number;
  /** The breakpoint's text (`ConfigMap default/app .data.mode`). */
  watch: string;
  kind: string;
  key: string;
  field: string;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resourceVersion: string;
  before: unknown;
  after: unknown;
  /** Position in the session's delta stream. */
  deltaSeq: number;
}

interface ConditionScope {
  value: unknown;
  old: unknown;
  obj: KubeObject | undefined;
  oldObj: KubeObject | undefined;
}
const CONDITION_NAMES = ['value', 'old', 'obj', 'oldObj'] as const;

interface Compiled {
  bp: DataBreakpoint;
  pattern: NamePattern;
  path: FieldPath;
  conditions: ((scope: ConditionScope) => unknown)[];
  hit?: (count: number) => boolean;
}

const TEXT = /^\s*(\S+)(?:\s+([^.[\s]\S*))?\s+([.[].*)$/s;

/** A function breakpoint's name is a data breakpoint when a field path follows kind and name. */
export function isDataBreakpointText(text: string): boolean {
  return TEXT.test(text);
}

export function parseDataBreakpointText(text: string): { pattern: NamePattern; path: FieldPath; field: string; condition?: string } {
  const m = TEXT.exec(text);
  if (!m) throw new Error('expected `Kind namespace/name .field.path`, optionally followed by a condition such as `== "off"`');
  const pattern = parseBreakpointName(m[2] ? `${m[1]} ${m[2]}` : (m[1] as string));
  const { path, rest } = parseFieldPath(m[3] as string);
  return { pattern, path, field: formatFieldPath(path), condition: rest ? `value ${rest}` : undefined };
}

/** The data id of a field shown in the Variables view: the text a function breakpoint would take. */
export function dataBreakpointText(object: KubeObject, path: FieldPath): string {
  const { namespace, name } = object.metadata;
  return `${object.kind} ${namespace ? `${namespace}/` : ''}${name} ${formatFieldPath(path)}`;
}

export class DataBreakpointSet {
  private readonly byOrigin = new Map<DataBreakpointOrigin, Compiled[]>();
  private readonly newId: () => number;

  constructor(newId: () => number = idCounter()) {
    this.newId = newId;
  }

  /** Replaces the breakpoints of one origin (DAP sends each list whole); hit counts restart. */
  set(origin: DataBreakpointOrigin, specs: DataBreakpointSpec[]): DataBreakpoint[] {
    const compiled = specs.map((spec) => this.compile(spec));
    this.byOrigin.set(origin, compiled);
    return compiled.map((c) => c.bp);
  }

  /** Verified breakpoints whose kind pattern matches none of `kinds` (what the controller's informers watch). */
  unwatched(kinds: readonly string[]): DataBreakpoint[] {
    return [...this.byOrigin.values()].flat().filter((c) => c.bp.verified && !kinds.some((k) => c.pattern.kind.test(k))).map((c) => c.bp);
  }

  /** Whether a verified breakpoint watches a field of this object (the change itself is not known yet). */
  watches(kind: string, key: string): boolean {
    return [...this.byOrigin.values()].flat().some((c) => c.bp.verified && matchKey(c.pattern, kind, key));
  }

  get size(): number {
    let n = 0;
    for (const list of this.byOrigin.values()) n += list.filter((c) => c.bp.verified).length;
    return n;
  }

  /**
   * The watched fields one cache delta changed, whose conditions hold. `count: false` (looking
   * back through history) leaves hit counts alone and ignores hit conditions.
   */
  changes(
    delta: { seq: number; type: FieldChange['type']; kind: string; key: string; resourceVersion: string },
    before: KubeObject | undefined,
    after: KubeObject | undefined,
    count = true,
  ): FieldChange[] {
    const out: FieldChange[] = [];
    for (const c of [...this.byOrigin.values()].flat()) {
      if (!c.bp.verified || !matchKey(c.pattern, delta.kind, delta.key)) continue;
      const old = readField(before, c.path);
      const value = readField(after, c.path);
      if (sameValue(old, value)) continue;
      const scope: ConditionScope = { value, old, obj: after, oldObj: before };
      if (!c.conditions.every((cond) => holds(cond, scope))) continue;
      if (count) {
        c.bp.hits++;
        if (c.hit && !c.hit(c.bp.hits)) continue;
      }
      out.push({
        breakpointId: c.bp.id,
        watch: c.bp.spec.text,
        kind: delta.kind,
        key: delta.key,
        field: formatFieldPath(c.path),
        type: delta.type,
        resourceVersion: delta.resourceVersion,
        before: old,
        after: value,
        deltaSeq: delta.seq,
      });
    }
    return out;
  }

  private compile(spec: DataBreakpointSpec): Compiled {
    const bp: DataBreakpoint = { id: this.newId(), spec, verified: true, hits: 0 };
    try {
      const parsed = parseDataBreakpointText(spec.text);
      const sources = [parsed.condition, spec.condition?.trim()].filter((s): s is string => !!s);
      const compiled: Compiled = { bp, pattern: parsed.pattern, path: parsed.path, conditions: sources.map((s) => compileCondition<ConditionScope>(s, CONDITION_NAMES)) };
      if (spec.hitCondition?.trim()) compiled.hit = parseHitCondition(spec.hitCondition);
      return compiled;
    } catch (err) {
      bp.verified = false;
      bp.message = (err as Error).message;
      return { bp, pattern: { kind: /$^/ }, path: [], conditions: [] };
    }
  }
}

/** A condition that throws does not hold (as for reconcile breakpoints). */
function holds(condition: (scope: ConditionScope) => unknown, scope: ConditionScope): boolean {
  try {
    return !!condition(scope);
  } catch {
    return false;
  }
}
