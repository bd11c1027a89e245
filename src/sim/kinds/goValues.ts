// How kube-apiserver's field errors print a value they could not accept: Go's `%#v` of the
// decoded field (field.Error.ErrorBody falls back to it for types without a simpler form).

/** A JSON base64 string decoded into a Go []byte, printed with %#v: `[]byte(nil)`, `[]byte{0x2d, 0x2d}`. */
export function goBytes(base64: unknown): string {
  if (base64 === undefined || base64 === null) return '[]byte(nil)';
  const bytes = Buffer.from(String(base64), 'base64');
  return `[]byte{${[...bytes].map((b) => `0x${b.toString(16)}`).join(', ')}}`;
}
