// The coalesce-events rules: for one user's watches of one object, each of the object's next
// `count` events is held until a later event of the object replaces it (the watcher does the
// holding and the folding: store/heldEvents.ts). Every watch of that user holds the same events:
// a count is used up once per event (per resourceVersion), however many watches see it.

export interface CoalesceRule {
  readonly user: string;
  /** `plural` or `plural.group`, as the watchers name their resource. */
  readonly resource: string;
  /** `namespace/name`, or `name` for a cluster-scoped object. */
  readonly key: string;
  /** How many events are held (each until a later one replaces it). */
  readonly count: number;
  /** A held event nothing replaces within this time is sent as it is. */
  readonly releaseAfterMs: number;
}

export interface CoalesceState extends Omit<CoalesceRule, 'count'> {
  /** Events still to hold. */
  readonly remaining: number;
}

class Rule {
  readonly spec: CoalesceRule;
  remaining: number;
  /** The resourceVersions held so far (so each event counts once across the user's watches). */
  readonly counted = new Set<string>();
  constructor(spec: CoalesceRule) {
    this.spec = spec;
    this.remaining = spec.count;
  }
}

export class Coalescing {
  private rules: Rule[] = [];

  /** Arms a rule; one already armed for the same user and object is replaced. */
  add(spec: CoalesceRule): void {
    this.rules = this.rules.filter((r) => !(r.spec.user === spec.user && r.spec.resource === spec.resource && r.spec.key === spec.key));
    this.rules.push(new Rule(spec));
  }

  holdingFor(user: string): boolean {
    return this.rules.some((r) => r.spec.user === user);
  }

  /** How long to hold this event for the user's watch; undefined: send it. Uses up the rule's count. */
  holdFor(user: string, resource: string, key: string, resourceVersion: string): number | undefined {
    const rule = this.rules.find((r) => r.spec.user === user && r.spec.resource === resource && r.spec.key === key);
    if (!rule) return undefined;
    if (rule.counted.has(resourceVersion)) return rule.spec.releaseAfterMs;
    if (rule.remaining === 0) {
      this.rules = this.rules.filter((r) => r !== rule);
      return undefined;
    }
    rule.remaining--;
    rule.counted.add(resourceVersion);
    return rule.spec.releaseAfterMs;
  }

  /** Drops the rules (of one user, or all). */
  clear(user?: string): void {
    this.rules = user === undefined ? [] : this.rules.filter((r) => r.spec.user !== user);
  }

  state(): CoalesceState[] {
    return this.rules
      .filter((r) => r.remaining > 0)
      .map(({ spec, remaining }) => ({ user: spec.user, resource: spec.resource, key: spec.key, releaseAfterMs: spec.releaseAfterMs, remaining }));
  }
}
