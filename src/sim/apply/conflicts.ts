import { ApiError } from '../../shared/apiError.ts';
import type { Status } from '../../shared/k8s.ts';
import { printPath } from './fieldSet.ts';
import type { ManagerEntry } from './managedFields.ts';

// The 409 an apply gets when it would change fields another manager owns, worded as
// kube-apiserver words it (one cause per conflicting field, reason FieldManagerConflict).

export interface Conflict {
  owner: ManagerEntry;
  path: readonly string[];
}

/** `"kubectl-edit" using apps/v1`, `"ctrl" with subresource "status" using v1`, `"applier"` (the API server prints a manager's identity, which has no time). */
function printManager(e: ManagerEntry): string {
  let out = JSON.stringify(e.manager);
  if (e.subresource) out += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') out += ` using ${e.apiVersion}`;
  return out;
}

export function conflictError(conflicts: readonly Conflict[]): ApiError {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.owner)}`, field: printPath(c.path) }));
  let message: string;
  if (conflicts.length === 1) {
    const only = conflicts[0] as Conflict;
    message = `Apply failed with 1 conflict: conflict with ${printManager(only.owner)}: ${printPath(only.path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const m = printManager(c.owner);
      byManager.set(m, [...(byManager.get(m) ?? []), printPath(c.path)]);
    }
    const lines: string[] = [];
    for (const m of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${m}:`);
      for (const p of byManager.get(m) ?? []) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  const status: Status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, reason: 'Conflict', code: 409, details: { causes } };
  return new ApiError(409, message, 'Conflict', status);
}
