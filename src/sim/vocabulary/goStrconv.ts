// Go's strconv errors, worded as kube-apiserver passes them through for a malformed number in a
// query parameter (`strconv.ParseInt: parsing "abc": invalid syntax`).

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Go's ParseInt(s, 10, 64): the number, or the error text. */
export function parseInt64(s: string): number | string {
  if (!/^[+-]?\d+$/.test(s)) return `strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`;
  const n = BigInt(s);
  if (n < INT64_MIN || n > INT64_MAX) return `strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`;
  return Number(n);
}

/** Go's ParseUint(s, 10, 64): the number, or the error text. */
export function parseUint64(s: string): number | string {
  if (!/^\d+$/.test(s)) return `strconv.ParseUint: parsing ${JSON.stringify(s)}: invalid syntax`;
  const n = BigInt(s);
  if (n > UINT64_MAX) return `strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`;
  return Number(n);
}
