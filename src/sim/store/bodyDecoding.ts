import type { KubeObject } from '../../shared/k8s.ts';
import { apiVersionOf } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { badRequest } from '../../shared/apiErrors.ts';
import { decodeProblems, dropFields } from '../goTypes/typedDecoding.ts';
import { mayHoldLiterals } from '../goTypes/numberLiterals.ts';
import type { DecodingContext, FieldOrder } from '../vocabulary/fieldValidation.ts';

// A built-in kind's body as kube-apiserver's decoder treats it: a wrong JSON type is a 400 naming
// the Go field; unknown fields are dropped, with a warning (fieldValidation=Warn, the default),
// silently (Ignore), or refuse the request (Strict), as kubectl's --validate=strict asks.

function cannotHandle(info: ResourceInfo, why: string): Error {
  return badRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${why}`);
}

/** Checks `obj` (mutable, the request's body or a patch's result) and drops unknown fields in place. */
export function decodeBuiltin(info: ResourceInfo, obj: KubeObject, decoding: DecodingContext): void {
  if (info.source !== 'builtin') return;
  const problems = decodeProblems(`${apiVersionOf(info)}/${info.kind}`, obj);
  if (!problems) return;
  if (problems.typeError) throw cannotHandle(info, problems.typeError);
  const complaints = inBodyOrder(problems.unknown, decoding.duplicates ?? [], decoding.fieldOrder);
  if (complaints.length === 0) return;
  if (decoding.mode === 'Strict') throw cannotHandle(info, `strict decoding error: ${complaints.join(', ')}`);
  if (decoding.mode === 'Warn') decoding.warnings?.push(...complaints);
  dropFields(obj as Record<string, unknown>, problems.unknownPaths);
}

/**
 * Refuses a built-in kind's body whose numbers do not fit their Go fields as written (1e3, 2.0,
 * 2^63 into an int64): checked on the body as parsed, before anything copies it and forgets how
 * its numbers were written. Other type errors are left to decodeBuiltin.
 */
export function refuseMiswrittenNumbers(info: ResourceInfo, body: Record<string, unknown>): void {
  if (info.source !== 'builtin' || !mayHoldLiterals(body)) return;
  const typeError = decodeProblems(`${apiVersionOf(info)}/${info.kind}`, body)?.typeError;
  if (typeError) throw cannotHandle(info, typeError);
}

/**
 * Unknown and repeated fields as Go's strict decoder lists them: in the order it meets them in the
 * body (an unknown field where it is named, a repeated one where it is named again).
 */
function inBodyOrder(unknown: readonly string[], duplicates: readonly string[], order: FieldOrder | undefined): string[] {
  const found = [
    ...unknown.map((f) => ({ text: `unknown field "${f}"`, at: order?.firstNamed(f) })),
    ...duplicates.map((f) => ({ text: `duplicate field "${f}"`, at: order?.namedAgain(f) })),
  ];
  // Without offsets (a body with no repeated field, an unknown one at a map key) the lists keep their own order.
  return found.map((c, i) => ({ ...c, i })).sort((a, b) => (a.at ?? Infinity) - (b.at ?? Infinity) || a.i - b.i).map((c) => c.text);
}
