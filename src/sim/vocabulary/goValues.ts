// How kube-apiserver's messages print Go values: `%#v` of a decoded field a field error could not
// accept (field.Error.ErrorBody falls back to it for types without a simpler form), `%q` of a list.

/** A []string printed with %q: `["a" "b"]`. */
export function goQuotedStrings(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** A JSON base64 string decoded into a Go []byte, printed with %#v: `[]byte(nil)`, `[]byte{0x2d, 0x2d}`. */
export function goBytes(base64: unknown): string {
  if (base64 === undefined || base64 === null) return '[]byte(nil)';
  const bytes = Buffer.from(String(base64), 'base64');
  return `[]byte{${[...bytes].map((b) => `0x${b.toString(16)}`).join(', ')}}`;
}
