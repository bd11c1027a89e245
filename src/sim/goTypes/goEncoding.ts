import { GENERATED_KINDS } from './generatedSchemas.ts';
import { fieldsOf, type Row } from './typedDecoding.ts';

// kube-apiserver answers with what Go's encoding/json prints for its types, whatever the client
// sent: a struct field is always there (`status: {}`, a template's `metadata: {}`), a field without
// `omitempty` is printed as its zero value (`reportingComponent: ""`) or null (`eventTime: null`),
// and a zero scalar with `omitempty` is left out (`nodePort: 0`). Built-in objects are stored in
// that form, so reads, watches and writes answer as the API server's round trip through its
// types does. The field tables are generated from k8s.io/api (generatedSchemas.ts).

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const SCALAR_ZERO: Record<string, unknown> = {
  string: '', bool: false, int32: 0, int64: 0, uint32: 0, uint64: 0, double: 0, float: 0,
};
const META = 'apimachinery.pkg.apis.meta.v1';
/** Types whose JSON is not an object of their fields: Go's zero value of each. */
const SPECIAL_ZERO: Record<string, unknown> = {
  [`${META}.Time`]: null,
  [`${META}.MicroTime`]: null,
  [`${META}.Duration`]: '0s',
  [`${META}.FieldsV1`]: null,
  'apimachinery.pkg.runtime.RawExtension': null,
  'apimachinery.pkg.util.intstr.IntOrString': 0,
  'apimachinery.pkg.api.resource.Quantity': '0',
  'api.authentication.v1.ExtraValue': null,
  'api.authorization.v1.ExtraValue': null,
  'api.certificates.v1.ExtraValue': null,
};

/** Puts a built-in object (`apiVersion/kind` known to the tables) in the form Go prints it; others are left as they are. */
export function encodeAsGo<T>(object: T): T {
  if (!isObject(object)) return object;
  const apiVersionKind = `${String(object['apiVersion'])}/${String(object['kind'])}`;
  if (Object.hasOwn(GENERATED_KINDS, apiVersionKind)) encodeMessage(GENERATED_KINDS[apiVersionKind]!, object, true);
  return object;
}

function encodeMessage(message: string, value: Json, root: boolean): void {
  // A frozen part was shared from a stored version, which is already in this form.
  if (Object.isFrozen(value)) return;
  for (const [key, row] of fieldsOf(message)) {
    if (root && (key === 'apiVersion' || key === 'kind')) continue;
    const flags = row[3] ?? '';
    const v = value[key];
    if (v === undefined || v === null) {
      // Unset (or null: Go decodes it as unset) is printed as the zero value, or left out with omitempty.
      if (flags.includes('e')) value[key] = zeroOf(row);
      else if (v === null) delete value[key];
      continue;
    }
    if (flags.includes('z') && v === SCALAR_ZERO[row[2]]) {
      delete value[key];
      continue;
    }
    // An empty map or list with omitempty is left out too (`data: {}` after a patch removed its last key).
    if (!flags.includes('e') && isEmptyCollection(flags, v)) {
      delete value[key];
      continue;
    }
    encodeField(row, v);
  }
}

function isEmptyCollection(flags: string, v: unknown): boolean {
  if (flags.includes('r')) return Array.isArray(v) && v.length === 0;
  if (flags.includes('m')) return isObject(v) && Object.keys(v).length === 0;
  return false;
}

/** What Go prints for an unset field that has no omitempty (or is a non-pointer struct). */
function zeroOf(row: Row): unknown {
  const [, , type, flags = ''] = row;
  if (flags.includes('p') || flags.includes('r') || flags.includes('m')) return null;
  if (Object.hasOwn(SCALAR_ZERO, type)) return SCALAR_ZERO[type];
  if (type === 'bytes') return null;
  if (Object.hasOwn(SPECIAL_ZERO, type)) return SPECIAL_ZERO[type];
  const zero: Json = {};
  encodeMessage(type, zero, false);
  return zero;
}

function encodeField(row: Row, v: unknown): void {
  const [, , type, flags = ''] = row;
  if (Object.hasOwn(SCALAR_ZERO, type) || type === 'bytes' || Object.hasOwn(SPECIAL_ZERO, type)) return;
  if (flags.includes('r')) {
    if (Array.isArray(v)) for (const item of v) if (isObject(item)) encodeMessage(type, item, false);
    return;
  }
  if (flags.includes('m')) {
    if (isObject(v)) for (const item of Object.values(v)) if (isObject(item)) encodeMessage(type, item, false);
    return;
  }
  if (isObject(v)) encodeMessage(type, v, false);
}
