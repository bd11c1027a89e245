// How deeply JSON may nest. kube-apiserver's decoder (Go's encoding/json scanner, vendored as
// sigs.k8s.io/json) refuses more than 10000 levels with "invalid character '{' exceeded max depth".
// The sim refuses past 1000: V8 serializes and clones objects recursively (JSON.stringify gives up
// near 4,400 levels, structuredClone near 1,600), and an object the sim could store but not
// serialize would break every later LIST and WATCH of its resource. Real objects nest a few dozen
// levels at most. Both checks below are iterative, so no input can overflow the stack here.
// The limit is the user's: an object's depth does not count its metadata.managedFields, which the
// server keeps and which mirror the object's fields a few levels further down.
import type { ApiError } from '../../shared/apiError.ts';
import { badRequest } from '../../shared/apiErrors.ts';

export const MAX_NESTING_DEPTH = 1000;

/**
 * How much deeper managedFields reach than the fields they name: metadata, the list, an entry,
 * fieldsV1 (4 levels), and a `{}` for a leaf field (1 more).
 */
export const MANAGED_FIELDS_LEVELS = 5;

/**
 * Scans JSON text for the first `{` or `[` that opens level `max + 1` (strings skipped).
 * Returns that character, or undefined when the text nests no deeper than `max`.
 */
export function jsonTextTooDeep(text: string, max = MAX_NESTING_DEPTH): '{' | '[' | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return c === 0x7b ? '{' : '[';
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return undefined;
}

/**
 * True when a decoded value nests objects and arrays deeper than `max` (a top-level object is 1).
 * Its `metadata.managedFields`, if any, may reach MANAGED_FIELDS_LEVELS further.
 */
export function valueTooDeep(value: unknown, max = MAX_NESTING_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const managedFields = (value as { metadata?: { managedFields?: unknown } }).metadata?.managedFields;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  const limits: number[] = [max];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const depth = depths.pop()!;
    const limit = limits.pop()!;
    if (depth > limit) return true;
    const childLimit = v === managedFields ? max + MANAGED_FIELDS_LEVELS : limit;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
        limits.push(childLimit);
      }
    }
  }
  return false;
}

/** The 400 for an object that would be stored nested too deeply (a patch can deepen a shallow body). */
export function nestedTooDeeply(): ApiError {
  return badRequest(`the object is nested too deeply: exceeded max depth of ${MAX_NESTING_DEPTH}`);
}
