import { badRequest, unclassified } from '../../shared/apiErrors.ts';
import { parseUint64 } from '../vocabulary/goStrconv.ts';

/**
 * Parses ?resourceVersion=… ('' or undefined → undefined). A non-number is what kube-apiserver's
 * storage answers: a 500 with strconv's words (its storage layer, not the request's validation, reads it).
 */
export function parseResourceVersion(value: string | undefined): number | undefined {
  const n = readResourceVersion(value);
  if (typeof n === 'string') throw unclassified(n);
  return n;
}

/**
 * A watch's ?resourceVersion=…: a non-number is the client's mistake, a 400 with the same words
 * (kube-apiserver v1.28 answers 500 here too; a 400 tells a client not to retry it as it is).
 */
export function parseWatchResourceVersion(value: string | undefined): number | undefined {
  const n = readResourceVersion(value);
  if (typeof n === 'string') throw badRequest(n);
  return n;
}

/** The number, undefined for none, or why it is not one. */
function readResourceVersion(value: string | undefined): number | undefined | string {
  if (value === undefined || value === '') return undefined;
  const n = parseUint64(value);
  return typeof n === 'string' ? `resourceVersion: Invalid value: "${value}": ${n}` : n;
}
