import { unclassified } from '../../shared/apiErrors.ts';
import { parseUint64 } from '../vocabulary/goStrconv.ts';

/**
 * Parses ?resourceVersion=… ('' or undefined → undefined). A non-number is what kube-apiserver's
 * storage answers: a 500 with strconv's words (its storage layer, not the request's validation, reads it).
 */
export function parseResourceVersion(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = parseUint64(value);
  if (typeof n === 'string') throw unclassified(`resourceVersion: Invalid value: "${value}": ${n}`);
  return n;
}
