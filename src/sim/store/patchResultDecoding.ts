import type { KubeObject } from '../../shared/k8s.ts';
import { apiVersionOf } from '../../shared/k8s.ts';
import { invalid } from '../../shared/apiErrors.ts';
import { ApiError } from '../../shared/apiError.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { decodeProblems } from '../goTypes/typedDecoding.ts';
import { keepNumberLiteral, numberLiteral } from '../goTypes/numberLiterals.ts';
import type { PatchType } from './types.ts';
import { patchedJsonText } from './patchedJsonText.ts';
import { goPlainValue, unstructuredConversionProblem } from '../goTypes/unstructuredConversion.ts';

// kube-apiserver applies a JSON merge patch or a JSON patch to the object's JSON text and decodes
// the result into the kind's Go type (a strategic merge patch's map it converts into it). A result
// that does not decode (a string where a number goes, or a number written 1e3 into an integer,
// which Go's decoder refuses as written) is a 422 on the
// field `patch`, quoting the patched JSON — not the 400 a create's body gets.

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Carries the literals of a merge patch's numbers to where the patch put them. */
function carryMerged(patch: unknown, result: unknown): void {
  if (Array.isArray(patch) && Array.isArray(result) && patch.length === result.length) {
    patch.forEach((v, i) => carryValue(patch, i, v, result, i));
  } else if (isRecord(patch) && isRecord(result)) {
    for (const [k, v] of Object.entries(patch)) carryValue(patch, k, v, result, k);
  }
}

function carryValue(patchHolder: object, patchKey: string | number, value: unknown, resultHolder: object, resultKey: string | number): void {
  const literal = numberLiteral(patchHolder, patchKey);
  const landed = (resultHolder as Record<string | number, unknown>)[resultKey];
  if (literal !== undefined && typeof landed === 'number') keepNumberLiteral(resultHolder, resultKey, literal);
  else carryMerged(value, landed);
}

/** A JSON pointer's unescaped tokens. */
const tokensOf = (pointer: string): string[] => pointer.split('/').slice(1).map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));

/** Carries the literals of a JSON patch's `add` and `replace` values to the places they name. */
function carryJsonPatch(ops: unknown, result: unknown): void {
  if (!Array.isArray(ops)) return;
  for (const op of ops) {
    if (!isRecord(op) || (op.op !== 'add' && op.op !== 'replace') || typeof op.path !== 'string' || !('value' in op)) continue;
    const tokens = tokensOf(op.path);
    let parent: unknown = result;
    for (const t of tokens.slice(0, -1)) parent = isRecord(parent) || Array.isArray(parent) ? (parent as Record<string, unknown>)[t] : undefined;
    const last = tokens.at(-1);
    if (last === undefined || !(isRecord(parent) || Array.isArray(parent))) continue;
    const key = Array.isArray(parent) && last === '-' ? parent.length - 1 : last;
    carryValue(op, 'value', op.value, parent, key);
  }
}

/** A strategic merge patch's result the unstructured converter refuses: the 422 quotes the patch as Go prints the map. */
function refuseUnconvertible(info: ResourceInfo, patch: unknown, result: KubeObject): void {
  const problem = unstructuredConversionProblem(`${apiVersionOf(info)}/${info.kind}`, result);
  if (problem) throw invalid('', '', '', [{ reason: 'FieldValueInvalid', field: 'patch', message: `Invalid value: ${JSON.stringify(goPlainValue(patch))}: ${problem}` }]);
}

/** Refuses a merge, JSON or strategic merge patch whose result a built-in kind's Go type cannot decode. */
export function refuseUndecodablePatchResult(info: ResourceInfo, type: PatchType, patch: unknown, result: KubeObject, current: unknown): void {
  if (info.source !== 'builtin') return;
  if (type === 'strategic') return refuseUnconvertible(info, patch, result);
  if (type !== 'merge' && type !== 'json') return;
  if (type === 'merge') carryMerged(patch, result);
  else carryJsonPatch(patch, result);
  // managedFields are field management's to read (entries it cannot read are ignored), as in a create.
  const meta = isRecord(result.metadata) ? result.metadata : undefined;
  const managedFields = meta?.managedFields;
  if (meta && managedFields !== undefined) delete meta.managedFields;
  let typeError: string | undefined;
  try {
    typeError = decodeProblems(`${apiVersionOf(info)}/${info.kind}`, result)?.typeError;
  } finally {
    if (meta && managedFields !== undefined) meta.managedFields = managedFields;
  }
  if (!typeError) return;
  throw invalid('', '', '', [{ reason: 'FieldValueInvalid', field: 'patch', message: `Invalid value: ${JSON.stringify(patchedJsonText(result, current, type, patch))}: ${typeError}` }]);
}

const STRICT = ': strict decoding error: ';

/** `unknown field "b.c"` sorts as Go meets it in a document whose keys are sorted: path segment by segment. */
function bySortedPath(a: string, b: string): number {
  const pa = (/"(.*)"$/.exec(a)?.[1] ?? a).split('.');
  const pb = (/"(.*)"$/.exec(b)?.[1] ?? b).split('.');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] !== pb[i]) return (pa[i] ?? '') < (pb[i] ?? '') ? -1 : 1;
  }
  return pa.length - pb.length;
}

/**
 * A patch whose result has fields the kind does not know, under fieldValidation=Strict: kube-apiserver
 * decodes the patched object and answers 422 on the field `patch` (quoting the patched JSON, or for a
 * strategic merge patch the patch as Go prints the map), not the 400 a create's body gets.
 * Other errors pass through unchanged.
 */
export function patchStrictDecodingError(err: unknown, type: PatchType, patch: unknown, result: KubeObject, current: unknown, customResource: boolean): unknown {
  if (!(err instanceof ApiError) || err.code !== 400 || !err.message.includes(STRICT)) return err;
  if (type !== 'merge' && type !== 'json' && type !== 'strategic') return err;
  const complaints = err.message.slice(err.message.indexOf(STRICT) + STRICT.length);
  const fields = complaints.match(/(unknown|duplicate) field "(?:[^"\\]|\\.)*"/g);
  if (!fields) return err;
  const why = `strict decoding error: ${[...fields].sort(bySortedPath).join(', ')}`;
  const value = type === 'strategic' ? JSON.stringify(goPlainValue(patch)) : JSON.stringify(patchedJsonText(result, current, type, patch, customResource));
  return invalid('', '', '', [{ reason: 'FieldValueInvalid', field: 'patch', message: `Invalid value: ${value}: ${why}` }]);
}
