// Field tables for the Kubernetes kinds whose protobuf bodies we decode: every kind the sim serves,
// read from src/sim/goTypes/generatedSchemas.ts (made from k8s.io/api's generated.proto by
// scripts/generate-protobuf-schemas.mjs), never typed by hand. Here the generated rows become the
// specs the decoder walks, with the apimachinery types that have a JSON form of their own (Time,
// Quantity, IntOrString …) turned into scalars.
import { GENERATED_KINDS, GENERATED_MESSAGES } from '../../goTypes/generatedSchemas.ts';

export type Scalar =
  | 'string'
  | 'bytes'
  | 'bool'
  | 'int'
  | 'double'
  | 'time'
  | 'microTime'
  | 'duration'
  | 'fieldsV1'
  | 'intOrString'
  | 'quantity'
  | 'rawExtension'
  | 'stringList';

export interface FieldSpec {
  name: string;
  type: Scalar | MessageSpec;
  repeated?: true;
  /** map<string, value>: entries are messages {key = 1; value = 2}. */
  map?: true;
  /** Embedded in Go with json:",inline": its fields land in the parent object. */
  inline?: true;
  /** A non-pointer omitempty scalar: Go's protobuf encoder writes its zero, JSON leaves it out. */
  omitZero?: true;
  /** A non-pointer metav1.Time: Go's JSON prints the zero time as null. */
  nullWhenZero?: true;
  /** A Go pointer: written only when set, so an empty string on the wire is a set one (a released Lease's holderIdentity). */
  pointer?: true;
}

export interface MessageSpec {
  [field: number]: FieldSpec;
}

const META = 'apimachinery.pkg.apis.meta.v1';

/** Messages that are scalars in JSON, by their generated name. */
const SPECIAL_MESSAGES: Record<string, Scalar> = {
  [`${META}.Time`]: 'time',
  [`${META}.MicroTime`]: 'microTime',
  [`${META}.Duration`]: 'duration',
  [`${META}.FieldsV1`]: 'fieldsV1',
  'apimachinery.pkg.util.intstr.IntOrString': 'intOrString',
  'apimachinery.pkg.api.resource.Quantity': 'quantity',
  'apimachinery.pkg.runtime.RawExtension': 'rawExtension',
  // Named string slices (Go's `type ExtraValue []string`): a message of repeated items on the wire, a list in JSON.
  'api.authentication.v1.ExtraValue': 'stringList',
  'api.authorization.v1.ExtraValue': 'stringList',
  'api.certificates.v1.ExtraValue': 'stringList',
};

const PROTO_SCALARS: Record<string, Scalar> = { string: 'string', bytes: 'bytes', bool: 'bool', int32: 'int', int64: 'int', double: 'double' };

const specs = new Map<string, MessageSpec>();

/** The spec of a generated message, built once; filled after caching so recursive types resolve. */
function messageSpec(name: string): MessageSpec {
  const cached = specs.get(name);
  if (cached) return cached;
  const rows = GENERATED_MESSAGES[name];
  if (!rows) throw new Error(`no generated protobuf schema for ${name}`);
  const spec: MessageSpec = {};
  specs.set(name, spec);
  for (const [number, json, type, flags = ''] of rows) {
    const field: FieldSpec = { name: json, type: PROTO_SCALARS[type] ?? SPECIAL_MESSAGES[type] ?? messageSpec(type) };
    if (flags.includes('r')) field.repeated = true;
    if (flags.includes('m')) field.map = true;
    if (flags.includes('i')) field.inline = true;
    if (flags.includes('z')) field.omitZero = true;
    if (flags.includes('n')) field.nullWhenZero = true;
    if (flags.includes('p')) field.pointer = true;
    spec[number] = field;
  }
  return spec;
}

/** Reviews: the server answers from the spec; a status a client sends along (kubectl 1.32 does) is not read. */
const STATUS_IGNORED = new Set(['authorization.k8s.io/v1/SelfSubjectAccessReview', 'authorization.k8s.io/v1/SelfSubjectRulesReview', 'authentication.k8s.io/v1/SelfSubjectReview']);

function withoutStatus(spec: MessageSpec): MessageSpec {
  return Object.fromEntries(Object.entries(spec).filter(([, field]) => (field as FieldSpec).name !== 'status'));
}

/** The spec for a body's `apiVersion/kind` (as the envelope's TypeMeta names it), if we decode it. */
export function messageForType(apiVersionKind: string): MessageSpec | undefined {
  if (!Object.hasOwn(GENERATED_KINDS, apiVersionKind)) return undefined;
  const spec = messageSpec(GENERATED_KINDS[apiVersionKind]!);
  return STATUS_IGNORED.has(apiVersionKind) ? withoutStatus(spec) : spec;
}

/** `apiVersion/kind` of every kind with a protobuf schema. */
export const DECODABLE_TYPES: readonly string[] = Object.keys(GENERATED_KINDS);
