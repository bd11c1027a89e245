import { CLASS_OF, type ChangePoint, type Plan, type WritePoint } from './plan.ts';

// A plan as it is given on the command line (`--plan '{…}'`) and stored in the report: JSON, so
// a replay command names exactly the run it replays. Read back with every field checked, so a plan
// typed by hand gets one clear line about what is wrong.

export class PlanError extends Error {}

export function encodePlan(plan: Plan): string {
  return JSON.stringify(plan);
}

const VERBS = new Set(['create', 'update', 'delete']);

export function parsePlan(text: string): Plan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new PlanError(`a plan is JSON, as the report and the replay command give it: ${(err as Error).message}`);
  }
  const o = object(value, 'the plan');
  const kind = o.kind;
  if (typeof kind !== 'string' || !(kind in CLASS_OF)) throw new PlanError(`plan kind must be one of ${Object.keys(CLASS_OF).join(', ')} (got ${JSON.stringify(kind)})`);
  switch (kind as Plan['kind']) {
    case 'crash-after-write':
      return { kind: 'crash-after-write', write: writePoint(o.write) };
    case 'stale-after-write':
      return { kind: 'stale-after-write', write: writePoint(o.write), lagMs: count(o.lagMs, 'lagMs', 0) };
    case 'stale-restart-after-write':
      return { kind: 'stale-restart-after-write', write: writePoint(o.write), lagMs: count(o.lagMs, 'lagMs', 0), ...(o.viewAfter === undefined ? {} : { viewAfter: changePoint(o.viewAfter, 'viewAfter') }) };
    case 'coalesce-change':
      return { kind: 'coalesce-change', change: changePoint(o.change) };
    case 'relist-across-changes':
      return { kind: 'relist-across-changes', change: changePoint(o.change), changes: count(o.changes, 'changes', 1) };
    case 'resync-when-quiet':
      return { kind: 'resync-when-quiet' };
    case 'crash-after-change':
      return { kind: 'crash-after-change', change: changePoint(o.change) };
    case 'stale-restart-after-change':
      return { kind: 'stale-restart-after-change', change: changePoint(o.change), lagMs: count(o.lagMs, 'lagMs', 0) };
  }
}

function object(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new PlanError(`${what} must be an object`);
  return v as Record<string, unknown>;
}

function text(v: unknown, name: string, optional = false): string {
  if (v === undefined && optional) return '';
  if (typeof v !== 'string') throw new PlanError(`${name} must be a string`);
  return v;
}

function count(v: unknown, name: string, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new PlanError(`${name} must be an integer of at least ${min}`);
  return v;
}

function writePoint(v: unknown): WritePoint {
  const o = object(v, 'write');
  if (typeof o.verb !== 'string' || !VERBS.has(o.verb)) throw new PlanError(`write.verb must be one of ${[...VERBS].join(', ')}`);
  return {
    verb: o.verb as WritePoint['verb'],
    kind: text(o.kind, 'write.kind'),
    namespace: text(o.namespace, 'write.namespace', true),
    name: text(o.name, 'write.name'),
    occurrence: count(o.occurrence, 'write.occurrence', 1),
    ...(o.request === undefined ? {} : { request: text(o.request, 'write.request') }),
  };
}

function changePoint(v: unknown, what = 'change'): ChangePoint {
  const o = object(v, what);
  return { kind: text(o.kind, `${what}.kind`), namespace: text(o.namespace, `${what}.namespace`, true), name: text(o.name, `${what}.name`), occurrence: count(o.occurrence, `${what}.occurrence`, 1) };
}
