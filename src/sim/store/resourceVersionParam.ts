import { badRequest } from '../../shared/apiErrors.ts';

/** Parses ?resourceVersion=… ('' or undefined → undefined); a non-number is a 400 like the server's. */
export function parseResourceVersion(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) {
    throw badRequest(`resourceVersion: Invalid value: "${value}": must be a non-negative integer`);
  }
  return n;
}
