import { ApiError } from '../../shared/apiError.ts';
import { apiVersionOf } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { decodeProblems, type Location } from '../goTypes/typedDecoding.ts';

// Server-side apply reads the applied configuration against the kind's schema before merging it:
// a field the type does not have fails the request whatever fieldValidation says, with
// structured-merge-diff's message, and (as kube-apiserver v1.28 answers it) as a 500 without a reason.

function fieldPath(loc: Location): string {
  return loc.map((part) => (typeof part === 'number' ? `[${part}]` : part.startsWith('[') ? part : `.${part}`)).join('');
}

/** Throws when an applied configuration of a built-in kind names fields its type does not declare. */
export function checkAppliedFields(info: ResourceInfo, namespace: string, name: string, patch: unknown): void {
  if (info.source !== 'builtin' || info.virtual) return;
  const problems = decodeProblems(`${apiVersionOf(info)}/${info.kind}`, patch);
  if (!problems || problems.unknownPaths.length === 0) return;
  const gvk = `${info.group}/${info.version}, Kind=${info.kind}`;
  const where = `${info.namespaced ? namespace : ''}/${name}`;
  const fields = problems.unknownPaths.map((p) => `${fieldPath(p)}: field not declared in schema`).join(', ');
  const message = `failed to create typed patch object (${where}; ${gvk}): ${fields}`;
  throw ApiError.fromStatus({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

