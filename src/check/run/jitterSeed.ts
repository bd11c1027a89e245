import { seedOf } from '../../shared/seededRandom.ts';
import type { Plan } from '../plans/plan.ts';

// A perturbed run's informers back off and relist after client-go's jittered delays; which of two
// informers relists first can decide whether a bug shows. Seeded by the plan and the start of the
// controller, a run and its replay (`--plan`, the same plan however its JSON was written) draw the
// same delays, so a finding found once replays again.

/** The jitter seed of a TypeScript controller's `incarnation`-th start in a run of `plan`. */
export function jitterSeed(plan: Plan, incarnation: number): number {
  // A write point's request (`patch`) only names it for a person: a plan typed without it is the same plan.
  const point = 'write' in plan ? { ...plan, write: { ...plan.write, request: undefined } } : plan;
  return (seedOf(canonicalJson(point)) + incarnation) >>> 0;
}

/** JSON with every object's keys sorted. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
