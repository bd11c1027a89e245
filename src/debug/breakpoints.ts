import type { KubeObject } from '../shared/k8s.ts';
import type { CacheView, ReconcileRequest, TriggerDelta } from '../runtime/index.ts';
import { splitKey } from '../shared/keys.ts';

// Reconcile breakpoints: the debugger's function breakpoints, named after what is reconciled.
//   `Deployment`                 every Deployment reconcile
//   `Deployment default/web`     one object;  `Deployment web` the name in any namespace
//   `Deployment default/web-*`   globs (`*`, `?`) in kind, namespace and name
//   `Pod default/web-1`          also matches a reconcile that this Pod's event triggered
// Conditions are JavaScript over `obj`, `req` and `trigger`; hit conditions count matching reconciles
// (`3` or `>=3`, `==3`, `>3`, `<3`, `<=3`, `%3`); a log message makes it a logpoint ({expr} interpolated).

export interface BreakpointSpec {
  name: string;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}

export interface BreakpointTarget {
  kind: string;
  key: string;
  request: ReconcileRequest;
  object: KubeObject | undefined;
  trigger: TriggerDelta[];
  /** The reconcile's sequence number: what each breakpoint's hit count was there is remembered. */
  seq?: number;
}

export interface NamePattern {
  kind: RegExp;
  namespace?: RegExp;
  name?: RegExp;
}

export interface ReconcileBreakpoint {
  id: number;
  spec: BreakpointSpec;
  verified: boolean;
  /** Why it cannot be used (shown next to the breakpoint). */
  message?: string;
  hits: number;
}

export type BreakpointVerdict =
  | { action: 'none' }
  | { action: 'stop'; breakpoint: ReconcileBreakpoint }
  | { action: 'log'; breakpoint: ReconcileBreakpoint; message: string };

interface Compiled {
  bp: ReconcileBreakpoint;
  pattern: NamePattern;
  condition?: (scope: ConditionScope) => unknown;
  hit?: (count: number) => boolean;
  /** The hit count each reconcile gave it (by seq), for looking back without counting again. */
  hitAt: Map<number, number>;
}

interface ConditionScope {
  obj: KubeObject | undefined;
  req: ReconcileRequest;
  trigger: TriggerDelta[];
}

export function globToRegExp(glob: string, caseInsensitive = false): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, caseInsensitive ? 'i' : '');
}

export function parseBreakpointName(name: string): NamePattern {
  const parts = name.trim().split(/\s+/);
  if (parts.length === 0 || parts[0] === '' || parts.length > 2) {
    throw new Error('expected `Kind`, `Kind name` or `Kind namespace/name` (a data breakpoint adds a field path: `Kind namespace/name .spec.replicas`)');
  }
  const pattern: NamePattern = { kind: globToRegExp(parts[0] as string, true) };
  const target = parts[1];
  if (target !== undefined) {
    const { namespace, name } = splitKey(target);
    pattern.name = globToRegExp(name);
    if (target.includes('/')) pattern.namespace = globToRegExp(namespace);
  }
  return pattern;
}

export function parseHitCondition(text: string): (count: number) => boolean {
  const m = /^\s*(>=|<=|==|=|>|<|%)?\s*(\d+)\s*$/.exec(text);
  if (!m) throw new Error(`hit condition must be a number, optionally after >=, >, ==, <, <= or %: ${text}`);
  const n = Number(m[2]);
  switch (m[1]) {
    case '>':
      return (c) => c > n;
    case '<':
      return (c) => c < n;
    case '<=':
      return (c) => c <= n;
    case '=':
    case '==':
      return (c) => c === n;
    case '%':
      return (c) => n > 0 && c % n === 0;
    default:
      return (c) => c >= n;
  }
}

/** One condition language for every breakpoint: a JavaScript expression over the names given. */
export function compileCondition<S extends object>(source: string, names: readonly (keyof S & string)[]): (scope: S) => unknown {
  // Breakpoint expressions are the user's own code, run only in a trusted workspace.
  const fn = new Function(...names, `"use strict"; return (${source});`) as (...values: unknown[]) => unknown;
  return (s) => fn(...names.map((n) => s[n]));
}

function compileExpression(source: string): (scope: ConditionScope) => unknown {
  return compileCondition<ConditionScope>(source, ['obj', 'req', 'trigger']);
}

export function matchKey(p: NamePattern, kind: string, key: string): boolean {
  if (!p.kind.test(kind)) return false;
  if (!p.name) return true;
  const { namespace, name } = splitKey(key);
  if (!p.name.test(name)) return false;
  return p.namespace ? p.namespace.test(namespace) : true;
}

/** Interpolates `{expr}` in a logpoint message; a failing expression shows its error inline. */
export function interpolateLogMessage(template: string, scope: ConditionScope): string {
  return template.replace(/\{([^{}]+)\}/g, (_m, expr: string) => {
    try {
      const v = compileExpression(expr)(scope);
      return typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
    } catch (err) {
      return `<${(err as Error).message}>`;
    }
  });
}

/** Breakpoint ids: reconcile and data breakpoints share one counter, so DAP never sees an id twice. */
export function idCounter(): () => number {
  let last = 0;
  return () => ++last;
}

export class BreakpointSet {
  private compiled: Compiled[] = [];
  private readonly newId: () => number;
  /** The session's controllers and the kinds each reconciles or watches, once they are known. */
  private controllers: readonly { name: string; kinds: readonly string[] }[] = [];

  constructor(newId: () => number = idCounter()) {
    this.newId = newId;
  }

  /** Replaces all breakpoints (DAP sends the full list each time); hit counts restart. */
  set(specs: BreakpointSpec[]): ReconcileBreakpoint[] {
    this.compiled = specs.map((spec) => this.compile(spec));
    for (const c of this.compiled) this.checkKind(c);
    return this.compiled.map((c) => c.bp);
  }

  /**
   * Learns a controller's kinds (its `For`, owned and watched kinds): a breakpoint on a kind none
   * of the session's controllers reconciles or watches can never stop (a typo, `Deploymnet`), and
   * says so instead of waiting in silence. Answers the breakpoints that became unusable.
   */
  learnController(name: string, kinds: readonly string[]): ReconcileBreakpoint[] {
    this.controllers = [...this.controllers.filter((c) => c.name !== name), { name, kinds }];
    return this.compiled.filter((c) => this.checkKind(c)).map((c) => c.bp);
  }

  /** Marks the breakpoint unusable when no controller's kind matches it; true when it did just now. */
  private checkKind(c: Compiled): boolean {
    if (!c.bp.verified || this.controllers.length === 0) return false;
    if (this.controllers.some((ctl) => ctl.kinds.some((k) => c.pattern.kind.test(k)))) return false;
    c.bp.verified = false;
    const known = this.controllers.map((ctl) => `${ctl.name} reconciles or watches ${[...new Set(ctl.kinds)].join(', ')}`).join('; ');
    c.bp.message = `No controller here reconciles or watches a kind named like "${c.bp.spec.name.split(/\s+/)[0] ?? ''}" (${known}): this breakpoint cannot stop`;
    return true;
  }

  /**
   * Once the caches have synced: a breakpoint on one object (`ConfigMap default/settngs`, no glob)
   * of a kind the controller sees, that the cache does not hold, says so instead of waiting in
   * silence. It stays set: it stops if that object is made. Answers the breakpoints it marked.
   */
  noteAbsent(cache: CacheView, seenKinds: readonly string[]): ReconcileBreakpoint[] {
    const kinds = [...cache.kinds(), ...seenKinds];
    const marked: ReconcileBreakpoint[] = [];
    for (const c of this.compiled) {
      if (!c.bp.verified || c.bp.message !== undefined || c.bp.hits > 0) continue;
      const [kindText = '', target] = c.bp.spec.name.trim().split(/\s+/);
      if (!target?.includes('/') || /[*?]/.test(c.bp.spec.name)) continue;
      const kind = kinds.find((k) => k.toLowerCase() === kindText.toLowerCase());
      const { namespace, name } = splitKey(target);
      if (!kind || cache.get(kind, namespace, name)) continue;
      const object = `${kindText} ${target}`;
      c.bp.message = `No ${object} in the controller's cache: this breakpoint stops once one is made and reconciled (\`why ${object}\` in the Debug Console says what its informer saw)`;
      marked.push(c.bp);
    }
    return marked;
  }

  list(): ReconcileBreakpoint[] {
    return this.compiled.map((c) => c.bp);
  }

  /** Decides for one reconcile: the first stopping breakpoint wins; logpoints report but never stop. */
  evaluate(target: BreakpointTarget, onLog?: (bp: ReconcileBreakpoint, message: string) => void): BreakpointVerdict {
    return this.decide(target, onLog);
  }

  /**
   * Decides for a recorded reconcile (Reverse Continue): nothing is counted again, and a hit
   * condition is checked against the count that reconcile had. One that ran before the breakpoint
   * was set was never counted: there, as for data breakpoints, the hit condition is left out.
   */
  recall(target: BreakpointTarget & { seq: number }): BreakpointVerdict {
    return this.decide(target, undefined, target.seq);
  }

  private decide(target: BreakpointTarget, onLog?: (bp: ReconcileBreakpoint, message: string) => void, recalled?: number): BreakpointVerdict {
    const scope: ConditionScope = { obj: target.object, req: target.request, trigger: target.trigger };
    let verdict: BreakpointVerdict = { action: 'none' };
    for (const c of this.compiled) {
      if (!c.bp.verified) continue;
      const matches = matchKey(c.pattern, target.kind, target.key) || target.trigger.some((t) => matchKey(c.pattern, t.kind, t.key));
      if (!matches) continue;
      if (c.condition) {
        let ok: unknown;
        try {
          ok = c.condition(scope);
        } catch (err) {
          // Name the breakpoint and the reconcile: with several breakpoints the bare error says neither.
          const at = `${target.kind} ${target.key}${target.seq !== undefined ? ` #${target.seq}` : ''}`;
          const gone = target.object ? '' : ' (obj is undefined: the object is gone)';
          onLog?.(c.bp, `breakpoint "${c.bp.spec.name}" condition failed on reconcile ${at}${gone}: ${(err as Error).message}`);
          ok = false;
        }
        if (!ok) continue;
      }
      if (recalled !== undefined) {
        const hits = c.hitAt.get(recalled);
        if (c.hit && hits !== undefined && !c.hit(hits)) continue;
      } else {
        c.bp.hits++;
        if (target.seq !== undefined) c.hitAt.set(target.seq, c.bp.hits);
        if (c.hit && !c.hit(c.bp.hits)) continue;
      }
      if (c.bp.spec.logMessage !== undefined) {
        // Looking back, a logpoint has nothing to say: it logged when the reconcile ran.
        if (recalled !== undefined) continue;
        const message = interpolateLogMessage(c.bp.spec.logMessage, scope);
        onLog?.(c.bp, message);
        if (verdict.action === 'none') verdict = { action: 'log', breakpoint: c.bp, message };
        continue;
      }
      if (verdict.action !== 'stop') verdict = { action: 'stop', breakpoint: c.bp };
    }
    return verdict;
  }

  private compile(spec: BreakpointSpec): Compiled {
    const bp: ReconcileBreakpoint = { id: this.newId(), spec, verified: true, hits: 0 };
    try {
      const compiled: Compiled = { bp, pattern: parseBreakpointName(spec.name), hitAt: new Map() };
      if (spec.condition?.trim()) compiled.condition = compileExpression(spec.condition);
      if (spec.hitCondition?.trim()) compiled.hit = parseHitCondition(spec.hitCondition);
      return compiled;
    } catch (err) {
      bp.verified = false;
      bp.message = (err as Error).message;
      return { bp, pattern: { kind: /$^/ }, hitAt: new Map() };
    }
  }
}
