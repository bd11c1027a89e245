// What the scaler and its corrected twin share: a parent's members, and the marks that record
// which of them joined.
import type { ReconcileContext } from 'controller-lab';
import { childrenOf, type ConfigMap } from '../family.ts';

const JOINED = 'check.example.com/joined-';

/** The parent's members in the cache (its children that say which node they are). */
export function members(ctx: ReconcileContext, parent: ConfigMap): ConfigMap[] {
  return childrenOf(ctx, parent).filter((c) => c.data?.node !== undefined);
}

export function joined(parent: ConfigMap, i: number): boolean {
  return parent.metadata.annotations?.[`${JOINED}${i}`] === 'true';
}

/** The members the parent records as joined. */
export function marked(parent: ConfigMap): number[] {
  return Object.keys(parent.metadata.annotations ?? {})
    .filter((k) => k.startsWith(JOINED))
    .map((k) => Number(k.slice(JOINED.length)));
}

/** A merge patch recording member i as joined. */
export function joinedMark(i: number): unknown {
  return { metadata: { annotations: { [`${JOINED}${i}`]: 'true' } } };
}

/** A merge patch removing member i's mark. */
export function unmark(i: number): unknown {
  return { metadata: { annotations: { [`${JOINED}${i}`]: null } } };
}
