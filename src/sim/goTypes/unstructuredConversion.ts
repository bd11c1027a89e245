import { GENERATED_KINDS } from './generatedSchemas.ts';
import { fieldsOf } from './typedDecoding.ts';

// A strategic merge patch is applied to the object as a map, and the result converted into the
// kind's Go type by apimachinery's unstructured converter, not by encoding/json: a value of the
// wrong kind fails with the converter's words (`cannot convert int64 to string`, `unrecognized
// type: int32`, `cannot restore map from string`), the first one met in the Go type's field order.
// Types that decode themselves (times, quantities, int-or-string…) are left to the JSON decoder.

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** reflect.Kind of a Go scalar type, by its proto name. */
const SCALAR_KINDS: Record<string, string> = {
  string: 'string', bool: 'bool', int32: 'int32', int64: 'int64', uint32: 'uint32', uint64: 'uint64', double: 'float64', float: 'float32',
};
const INTEGER = new Set(['int32', 'int64', 'uint32', 'uint64']);
const FLOAT = new Set(['float64', 'float32']);

/** reflect.Kind of a value decoded from JSON into interface{}. */
function sourceKind(v: unknown): string {
  if (Array.isArray(v)) return 'slice';
  if (isObject(v)) return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

/** fromUnstructured for a simple type: undefined when it converts. */
function scalarProblem(target: string, v: unknown): string | undefined {
  const from = sourceKind(v);
  if (from === target) return undefined;
  if (from === 'int64' && (INTEGER.has(target) || FLOAT.has(target))) return undefined;
  if (from === 'float64') {
    if (FLOAT.has(target) || (INTEGER.has(target) && Number.isInteger(v))) return undefined;
    if (INTEGER.has(target)) return `cannot convert float64 to ${target}`;
  }
  // Go converts an integer to a string (a rune), which JSON does not: refused in these words.
  if (from === 'int64' && target === 'string') return 'cannot convert int64 to string';
  return `unrecognized type: ${target}`;
}

function messageProblem(message: string, value: Obj): string | undefined {
  for (const [key, row] of fieldsOf(message)) {
    const v = value[key];
    if (v === undefined || v === null) continue;
    const problem = fieldProblem(row[2], row[3] ?? '', v);
    if (problem) return problem;
  }
  return undefined;
}

function fieldProblem(type: string, flags: string, v: unknown): string | undefined {
  if (flags.includes('r') && type !== 'bytes') {
    if (!Array.isArray(v)) return `cannot restore slice from ${sourceKind(v)}`;
    for (const item of v) {
      const problem = item === null ? undefined : valueProblem(type, item);
      if (problem) return problem;
    }
    return undefined;
  }
  if (flags.includes('m')) {
    if (!isObject(v)) return `cannot restore map from ${sourceKind(v)}`;
    for (const k of Object.keys(v).sort()) {
      const problem = v[k] === null ? undefined : valueProblem(type, v[k]);
      if (problem) return problem;
    }
    return undefined;
  }
  return valueProblem(type, v);
}

function valueProblem(type: string, v: unknown): string | undefined {
  const scalar = SCALAR_KINDS[type];
  if (scalar) return scalarProblem(scalar, v);
  const fields = fieldsOf(type);
  // Bytes, and types that decode themselves from JSON: their own decoder words their problems.
  if (type === 'bytes' || type.endsWith('.Time') || type.endsWith('.MicroTime') || type.endsWith('.Duration') || type.endsWith('.Quantity')
    || type.endsWith('.IntOrString') || type.endsWith('.RawExtension') || type.endsWith('.FieldsV1') || type.endsWith('.ExtraValue') || fields.size === 0) return undefined;
  if (!isObject(v)) return `cannot restore struct from: ${sourceKind(v)}`;
  return messageProblem(type, v);
}

/** The converter's first problem with a built-in kind's object after a strategic merge patch; undefined when it converts. */
export function unstructuredConversionProblem(apiVersionKind: string, object: unknown): string | undefined {
  const message = GENERATED_KINDS[apiVersionKind];
  if (!message || !isObject(object)) return undefined;
  return messageProblem(message, object);
}

/** Go's %v of a decoded JSON value: maps with sorted keys, `map[a:1]`, lists `[a b]`. */
export function goPlainValue(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(goPlainValue).join(' ')}]`;
  if (isObject(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goPlainValue(v[k])}`).join(' ')}]`;
  return v === null ? '<nil>' : String(v);
}
