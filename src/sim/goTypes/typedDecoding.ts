import { GENERATED_KINDS, GENERATED_MESSAGES } from './generatedSchemas.ts';
import { numberLiteral } from './numberLiterals.ts';
import { crdTypeError } from './crdDecoding.ts';

// What kube-apiserver's decoding into the Go types rejects or drops, for built-in kinds: a value of
// the wrong JSON type (`data: {a: 1}` in a ConfigMap) is a 400 with encoding/json's message, and a
// field the type does not have is unknown (dropped with a warning, or refused under
// fieldValidation=Strict). The field types come from the tables generated from k8s.io/api, so
// every served kind is checked the same way and nothing is typed by hand.

export interface DecodeProblems {
  /** encoding/json's UnmarshalTypeError (or base64/time/quantity) text, if the body does not decode. */
  typeError?: string;
  /** Fields the Go type does not have, as the API server names them (`spec.containers[0].foo`). */
  unknown: string[];
  /** The same fields as path segments (names and list indexes), for dropFields. */
  unknownPaths: Location[];
}

/** A field's place: names for objects, numbers for list items, `[key]` strings for map values. */
export type Location = readonly (string | number)[];

function locationText(loc: Location): string {
  let out = '';
  for (const part of loc) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out;
}

export type Row = readonly [number, string, string, string?];

const SCALARS = new Set(['string', 'bytes', 'bool', 'int32', 'int64', 'double', 'float', 'uint32', 'uint64']);
const META = 'apimachinery.pkg.apis.meta.v1';
/** Messages with a JSON form of their own (not an object of their fields). */
const SPECIAL: Record<string, (v: unknown) => string | undefined> = {
  [`${META}.Time`]: (v) => (typeof v === 'string' ? timeProblem(v) : `cannot unmarshal ${jsonKind(v)} into Go value of type string`),
  [`${META}.MicroTime`]: (v) => (typeof v === 'string' ? microTimeProblem(v) : `cannot unmarshal ${jsonKind(v)} into Go value of type string`),
  [`${META}.Duration`]: (v) => (typeof v === 'string' ? undefined : `cannot unmarshal ${jsonKind(v)} into Go value of type string`),
  [`${META}.FieldsV1`]: () => undefined,
  'apimachinery.pkg.runtime.RawExtension': () => undefined,
  'apimachinery.pkg.util.intstr.IntOrString': (v) => (typeof v === 'string' || typeof v === 'number' ? undefined : `cannot unmarshal ${jsonKind(v)} into Go value of type int32`),
  'apimachinery.pkg.api.resource.Quantity': (v) => quantityProblem(v),
  // Named string slices (`type ExtraValue []string`): a list of strings in JSON, a wrapper message only in protobuf.
  'api.authentication.v1.ExtraValue': (v) => stringListProblem(v),
  'api.authorization.v1.ExtraValue': (v) => stringListProblem(v),
  'api.certificates.v1.ExtraValue': (v) => stringListProblem(v),
};

function stringListProblem(v: unknown): string | undefined {
  if (!Array.isArray(v)) return `cannot unmarshal ${jsonKind(v)} into Go value of type v1.ExtraValue`;
  const wrong = v.find((item) => item !== null && typeof item !== 'string');
  return wrong === undefined ? undefined : `cannot unmarshal ${jsonKind(wrong)} into Go value of type string`;
}

/** Fields of a message by JSON name, with `json:",inline"` members lifted into their parent. */
const fieldTables = new Map<string, Map<string, Row>>();

export function fieldsOf(message: string): Map<string, Row> {
  let table = fieldTables.get(message);
  if (table) return table;
  table = new Map();
  fieldTables.set(message, table);
  for (const row of GENERATED_MESSAGES[message] ?? []) {
    if ((row[3] ?? '').includes('i')) for (const [k, v] of fieldsOf(row[2])) table.set(k, v);
    else table.set(row[1], row);
  }
  return table;
}

/** Go's name for a proto type: `api.core.v1.PodSpec` → `v1.PodSpec`, int64 → int64. */
function goType(type: string, flags = ''): string {
  const base = SCALARS.has(type) ? (type === 'bytes' ? '[]uint8' : type === 'double' ? 'float64' : type) : type.split('.').slice(-2).join('.');
  if (flags.includes('m')) return `map[string]${base}`;
  if (flags.includes('r')) return `[]${base}`;
  return base;
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'string';
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function base64Problem(v: string): string | undefined {
  if (BASE64.test(v)) return undefined;
  // Go reports the first byte that breaks the encoding.
  let at = 0;
  while (at < v.length && /[A-Za-z0-9+/]/.test(v[at]!)) at++;
  if (at === v.length) at = v.length - (v.length % 4 || 4);
  return `illegal base64 data at input byte ${Math.max(0, at)}`;
}

function timeProblem(v: string): string | undefined {
  if (v === '' || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v)) return undefined;
  return `parsing time ${JSON.stringify(JSON.stringify(v))} as "\\"2006-01-02T15:04:05Z07:00\\"": cannot parse ${JSON.stringify(`${v}"`)} as "2006"`;
}

const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

/**
 * A MicroTime is parsed with Go's RFC3339Micro layout: exactly six fractional digits, then a zone.
 * time.Parse names the rest of the value it could not match and the part of the layout it expected.
 */
function microTimeProblem(v: string): string | undefined {
  const at = `parsing time ${JSON.stringify(v)} as "${RFC3339_MICRO}"`;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(v)) return `${at}: cannot parse ${JSON.stringify(v)} as "2006"`;
  const rest = v.slice(19);
  if (!/^\.\d{6}/.test(rest)) return `${at}: cannot parse ${JSON.stringify(rest)} as ".000000"`;
  const zone = rest.slice(7);
  if (!/^(Z|[+-]\d{2}:\d{2})$/.test(zone)) return `${at}: cannot parse ${JSON.stringify(zone)} as "Z07:00"`;
  return undefined;
}

const QUANTITY = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;

function quantityProblem(v: unknown): string | undefined {
  if (typeof v === 'number') return undefined;
  if (typeof v !== 'string') return `cannot unmarshal ${jsonKind(v)} into Go value of type resource.Quantity`;
  return QUANTITY.test(v.trim()) ? undefined : "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
}

/** The values each Go integer type holds. */
const INTEGER_RANGE: Record<string, readonly [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** `literal`: how the number was written, when JSON.parse could not keep it (numberLiterals.ts). */
function scalarProblem(type: string, v: unknown, literal: string | undefined): string | undefined {
  switch (type) {
    case 'string':
      return typeof v === 'string' ? undefined : jsonKind(v);
    case 'bool':
      return typeof v === 'boolean' ? undefined : jsonKind(v);
    case 'double':
    case 'float':
      if (typeof v !== 'number') return jsonKind(v);
      return Number.isFinite(v) ? undefined : `number ${literal ?? v}`;
    case 'bytes':
      return typeof v === 'string' ? undefined : jsonKind(v);
    default: {
      // Integers: Go's ParseInt reads the literal, so a fraction, an exponent (1e3, 2.0) or a value
      // past the type's range is refused as "number <literal>", as encoding/json words it.
      if (typeof v !== 'number') return jsonKind(v);
      const written = literal ?? String(v);
      if (!Number.isInteger(v) || !/^-?\d+$/.test(written)) return `number ${written}`;
      const [min, max] = INTEGER_RANGE[type] ?? INTEGER_RANGE['int64']!;
      // Without the literal (a copy of the body) only what the float shows is known: 2^63 may be 2^63-1.
      const outside = literal !== undefined ? BigInt(literal) < min || BigInt(literal) > max : v < Number(min) || v > Number(max);
      return outside ? `number ${written}` : undefined;
    }
  }
}

class Walker {
  typeError: string | undefined;
  readonly unknown: Location[] = [];
  // The JSON names from the root, as encoding/json reports them, and the same place with list
  // indexes and map keys: one stack each, pushed and popped, copied only when a problem is kept.
  private readonly path: string[] = [];
  private readonly loc: (string | number)[] = [];

  message(message: string, value: Record<string, unknown>, root: boolean): void {
    const fields = fieldsOf(message);
    const struct = structName(message);
    for (const key of Object.keys(value)) {
      if (this.typeError) return;
      if (root && (key === 'apiVersion' || key === 'kind')) continue;
      const row = fields.get(key);
      if (!row) {
        this.unknown.push([...this.loc, key]);
        continue;
      }
      this.path.push(key);
      this.loc.push(key);
      this.field(row, value, key, struct);
      this.path.pop();
      this.loc.pop();
    }
  }

  private fail(what: string, goTypeName: string, struct: string): void {
    this.typeError = `json: cannot unmarshal ${what} into Go struct field ${struct}.${this.path.join('.')} of type ${goTypeName}`;
  }

  private field(row: Row, holder: Record<string, unknown>, key: string, struct: string): void {
    const v = holder[key];
    if (v === null) return;
    const [, , type, flags = ''] = row;
    if (flags.includes('m')) {
      if (typeof v !== 'object' || Array.isArray(v)) return this.fail(jsonKind(v), goType(type, flags), struct);
      for (const [mapKey, item] of Object.entries(v as Record<string, unknown>)) {
        if (item === null) continue;
        this.loc.push(`[${mapKey}]`);
        const ok = this.value(type, item, struct, numberLiteral(v, mapKey));
        this.loc.pop();
        if (!ok) return;
      }
      return;
    }
    if (flags.includes('r')) {
      if (!Array.isArray(v)) return this.fail(jsonKind(v), goType(type, flags), struct);
      for (let i = 0; i < v.length; i++) {
        if (v[i] === null) continue;
        this.loc.push(i);
        const ok = this.value(type, v[i], struct, numberLiteral(v, i));
        this.loc.pop();
        if (!ok) return;
      }
      return;
    }
    this.value(type, v, struct, numberLiteral(holder, key));
  }

  /** Checks one value of `type`; false once a type error is recorded. */
  private value(type: string, v: unknown, struct: string, literal?: string): boolean {
    if (SCALARS.has(type)) {
      const what = scalarProblem(type, v, literal);
      if (what) {
        this.fail(what, goType(type), struct);
        return false;
      }
      if (type === 'bytes') {
        const problem = base64Problem(v as string);
        if (problem) {
          this.typeError = problem;
          return false;
        }
      }
      return true;
    }
    const special = SPECIAL[type];
    if (special) {
      const problem = special(v);
      if (problem) this.typeError = problem.startsWith('cannot unmarshal') ? `json: ${problem.replace('Go value', `Go struct field ${struct}.${this.path.join('.')}`)}` : problem;
      return problem === undefined;
    }
    if (typeof v !== 'object' || Array.isArray(v)) {
      this.fail(jsonKind(v), goType(type), struct);
      return false;
    }
    this.message(type, v as Record<string, unknown>, false);
    return this.typeError === undefined;
  }
}

const structNames = new Map<string, string>();
function structName(message: string): string {
  let name = structNames.get(message);
  if (name === undefined) structNames.set(message, (name = message.split('.').at(-1)!));
  return name;
}

const CRD_KIND = 'apiextensions.k8s.io/v1/CustomResourceDefinition';

/** Problems decoding `object` as the built-in `apiVersion/kind`; undefined for kinds without a schema (custom resources). */
export function decodeProblems(apiVersionKind: string, object: unknown): DecodeProblems | undefined {
  if (apiVersionKind === CRD_KIND && typeof object === 'object' && object !== null && !Array.isArray(object)) {
    const typeError = crdTypeError(object as Record<string, unknown>);
    return typeError ? { typeError, unknown: [], unknownPaths: [] } : undefined;
  }
  if (!Object.hasOwn(GENERATED_KINDS, apiVersionKind)) return undefined;
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return { unknown: [], unknownPaths: [] };
  const walker = new Walker();
  walker.message(GENERATED_KINDS[apiVersionKind]!, object as Record<string, unknown>, true);
  const problems: DecodeProblems = { unknown: walker.unknown.map(locationText), unknownPaths: walker.unknown };
  if (walker.typeError) problems.typeError = walker.typeError;
  return problems;
}

/** The fields of `object` the Go message (`apimachinery.pkg.apis.meta.v1.ObjectMeta`) does not have, where they are. */
export function unknownFieldsOf(message: string, object: Record<string, unknown>): Location[] {
  const walker = new Walker();
  walker.message(message, object, false);
  return walker.unknown;
}

/** Removes the fields at `paths` from `object`, as the API server drops what its types do not have. */
export function dropFields(object: Record<string, unknown>, paths: readonly Location[]): void {
  for (const path of paths) {
    let cur: unknown = object;
    for (const part of path.slice(0, -1)) {
      if (typeof cur !== 'object' || cur === null) break;
      const key = typeof part === 'string' && part.startsWith('[') ? part.slice(1, -1) : part;
      cur = (cur as Record<string | number, unknown>)[key];
    }
    if (typeof cur === 'object' && cur !== null && !Array.isArray(cur)) delete (cur as Record<string, unknown>)[String(path.at(-1))];
  }
}
