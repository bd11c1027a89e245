// The apimachinery messages whose JSON form is not an object, decoded as the API server's JSON
// encoding prints them: Time/MicroTime as RFC 3339, Duration as a Go duration string, IntOrString
// as a number or a string, Quantity as its string, RawExtension and FieldsV1 as the JSON they carry.
import { WireReader } from './wireReader.ts';

/** Field number → the raw reader positioned on it; the decoder's small messages read themselves. */
function fields(bytes: Uint8Array, read: (field: number, r: WireReader, wire: number) => void): void {
  const r = new WireReader(bytes);
  for (let t = r.tag(); t; t = r.tag()) read(t.field, r, t.wire);
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

/** Time/MicroTime {seconds = 1, nanos = 2}; the zero time is Go's unset (omitted, or null in JSON). */
export function timestamp(bytes: Uint8Array, micro: boolean): string | undefined {
  let seconds = 0;
  let nanos = 0;
  fields(bytes, (field, r, wire) => {
    if (field === 1) seconds = r.signedVarint();
    else if (field === 2) nanos = r.signedVarint();
    else r.skip(wire);
  });
  if (seconds === 0 && nanos === 0) return undefined;
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
}

/** Go's time.Duration.String(): "1h2m3.5s", "1.5ms", "0s". */
export function goDuration(nanoseconds: number): string {
  if (nanoseconds === 0) return '0s';
  const sign = nanoseconds < 0 ? '-' : '';
  const ns = Math.abs(nanoseconds);
  const trim = (n: number, unit: number, digits: number) => String(Math.floor(n / unit)) + (n % unit ? `.${String(n % unit).padStart(digits, '0').replace(/0+$/, '')}` : '');
  if (ns < 1e3) return `${sign}${ns}ns`;
  if (ns < 1e6) return `${sign}${trim(ns, 1e3, 3)}µs`;
  if (ns < 1e9) return `${sign}${trim(ns, 1e6, 6)}ms`;
  const hours = Math.floor(ns / 3.6e12);
  const minutes = Math.floor((ns % 3.6e12) / 6e10);
  const seconds = trim(ns % 6e10, 1e9, 9);
  return `${sign}${hours ? `${hours}h` : ''}${hours || minutes ? `${minutes}m` : ''}${seconds}s`;
}

/** Duration {duration = 1 (int64 nanoseconds)}. */
export function duration(bytes: Uint8Array): string {
  let ns = 0;
  fields(bytes, (field, r, wire) => (field === 1 ? (ns = r.signedVarint()) : r.skip(wire)));
  return goDuration(ns);
}

/** IntOrString {type = 1 (0 int, 1 string), intVal = 2, strVal = 3}. */
export function intOrString(bytes: Uint8Array): number | string {
  let type = 0;
  let intVal = 0;
  let strVal = '';
  fields(bytes, (field, r, wire) => {
    if (field === 1) type = r.varint();
    else if (field === 2) intVal = r.signedVarint();
    else if (field === 3) strVal = text(r.bytes());
    else r.skip(wire);
  });
  return type === 1 ? strVal : intVal;
}

/** Quantity {string = 1}: the canonical string ("500m", "1Gi"). */
export function quantity(bytes: Uint8Array): string {
  let value = '';
  fields(bytes, (field, r, wire) => (field === 1 ? (value = text(r.bytes())) : r.skip(wire)));
  return value;
}

/** RawExtension {raw = 1} and FieldsV1 {Raw = 1}: bytes holding JSON (empty: nothing). */
export function embeddedJson(bytes: Uint8Array): unknown {
  let raw: Uint8Array | undefined;
  fields(bytes, (field, r, wire) => (field === 1 ? (raw = r.bytes()) : r.skip(wire)));
  if (raw === undefined || raw.length === 0) return undefined;
  try {
    return JSON.parse(text(raw));
  } catch {
    throw new Error('an embedded object (RawExtension/FieldsV1) is not JSON');
  }
}
