import type { KubeObject } from '../../shared/k8s.ts';
import type { Identified } from './identity.ts';

// A uid is no more state than a generated name: every run gives its objects other uids (the
// scenario's seed fixes them only while every run creates in the same order, and with the cluster's
// own controllers on, their creates and the controller's interleave as they happen to). So wherever
// a value is the uid of an object of the same run — a Job's controller-uid label and selector, its
// Pods' labels, a status that records which object it bound — it is replaced by that object's
// identity before runs are compared. A uid of an object the run no longer has stays as it is: a
// controller still pointing at an object that is gone is a difference.

/** The same objects, each a copy whose values that are a uid of one of them read `<uid of identity>`. */
export function canonicalUids(objects: Identified): Identified {
  const ids = new Map<string, string>();
  for (const [id, o] of objects) if (o.metadata.uid) ids.set(o.metadata.uid, `<uid of ${id}>`);
  if (ids.size === 0) return objects;
  const out: Identified = new Map();
  for (const [id, o] of objects) out.set(id, replaced(o, ids) as KubeObject);
  return out;
}

function replaced(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => replaced(v, ids));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = replaced(v, ids);
    return out;
  }
  return value;
}
