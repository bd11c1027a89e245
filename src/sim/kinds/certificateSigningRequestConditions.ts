import type { Cause } from '../../shared/apiErrors.ts';

// The conditions of a CertificateSigningRequest across an update, as its registry and validation
// treat them: times a write leaves out are filled in, Approved and Denied change only through
// /approval (a /status write's instances of them are the stored ones, in the places it gives
// them), and no Approved, Denied or Failed condition is ever taken away.

export type Condition = { type?: unknown; status?: unknown; lastUpdateTime?: string; lastTransitionTime?: string; reason?: string; message?: string };

const APPROVALS = ['Approved', 'Denied'];
const PERMANENT = ['Approved', 'Denied', 'Failed'];

/** The times a write leaves out: set now, a transition time kept while the status is unchanged (populateConditionTimestamps). */
export function stampConditions(conditions: readonly Condition[], before: readonly Condition[], now: string): Condition[] {
  return conditions.map((c) => {
    const old = before.find((b) => b.type === c.type);
    const out = { ...c };
    out.lastUpdateTime ??= now;
    if (!out.lastTransitionTime) out.lastTransitionTime = old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : now;
    return out;
  });
}

/** A /status write's Approved and Denied conditions replaced by the stored ones where it has as many (preserveConditionInstances). */
export function preserveApprovals(conditions: readonly Condition[], before: readonly Condition[]): Condition[] {
  const out = [...conditions];
  for (const type of APPROVALS) {
    const stored = before.filter((c) => c.type === type);
    const places = out.flatMap((c, i) => (c.type === type ? [i] : []));
    if (stored.length !== places.length) continue;
    places.forEach((place, n) => (out[place] = stored[n]!));
  }
  return out;
}

/** The 422 causes of an update's conditions: none removed, and Approved or Denied added only where `approving` (/approval). */
export function conditionChangeCauses(before: readonly Condition[], after: readonly Condition[], approving: boolean): Cause[] {
  const count = (list: readonly Condition[], type: string) => list.filter((c) => c.type === type).length;
  const forbidden = (message: string): Cause => ({ reason: 'FieldValueForbidden', field: 'status.conditions', message: `Forbidden: ${message}` });
  const causes = PERMANENT.filter((t) => count(after, t) < count(before, t)).map((t) => forbidden(`updates may not remove a condition of type ${JSON.stringify(t)}`));
  if (!approving) causes.push(...APPROVALS.filter((t) => count(after, t) > count(before, t)).map((t) => forbidden(`updates may not add a condition of type ${JSON.stringify(t)}`)));
  return causes;
}
