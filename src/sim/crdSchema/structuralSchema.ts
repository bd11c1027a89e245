import type { Cause } from '../../shared/apiErrors.ts';
import type { JsonSchema } from './jsonSchema.ts';
import { prune } from './pruning.ts';
import { compiled, validateValueAt } from './valueValidation.ts';
import { validateRuleDefinitions } from './cel/ruleDefinitions.ts';
import { runRules } from './cel/ruleSandbox.ts';

// What the apiextensions validator requires of each version's openAPIV3Schema before it accepts a
// CustomResourceDefinition (apiextensions.k8s.io/v1): a schema for every version, and a
// structural one — every field typed, objects at the root, array items given, no $ref, value
// validations (allOf/anyOf/oneOf/not) that only restrict what is already specified — in the
// validator's field paths and words.

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
type Level = 'root' | 'item' | 'field';

interface CrdVersion {
  name?: string;
  schema?: { openAPIV3Schema?: JsonSchema };
}

export function validateCrdSchemas(spec: { versions?: CrdVersion[]; preserveUnknownFields?: boolean }): Cause[] {
  const causes: Cause[] = [];
  (spec.versions ?? []).forEach((v, i) => {
    const path = `spec.versions[${i}].schema.openAPIV3Schema`;
    const schema = v.schema?.openAPIV3Schema;
    if (!schema) {
      causes.push({ reason: 'FieldValueRequired', field: path, message: 'Required value: schemas are required' });
      return;
    }
    // The structural errors come sorted by their text, as the API server sorts them.
    const text = (c: Cause): string => `${c.field}: ${c.message}`;
    causes.push(...structural(schema, 'root', path).sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0)));
    causes.push(...openApiRules(schema, path));
    if (!causes.length) causes.push(...validateRuleDefinitions(schema, path));
    // Defaults are checked against the rules too: only once the rules compile.
    if (!causes.length) causes.push(...defaults(schema, path));
  });
  return causes;
}

const required = (field: string, detail: string): Cause => ({ reason: 'FieldValueRequired', field, message: `Required value: ${detail}` });
const forbidden = (field: string, detail: string): Cause => ({ reason: 'FieldValueForbidden', field, message: `Forbidden: ${detail}` });
const invalidType = (field: string, value: string, detail: string): Cause => ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value)}: ${detail}` });

/** The generic OpenAPI checks (ValidateCustomResourceDefinitionOpenAPISchema) that apply everywhere. */
function openApiRules(s: JsonSchema, path: string): Cause[] {
  const causes: Cause[] = [];
  if (s.$ref !== undefined) causes.push(forbidden(`${path}.$ref`, '$ref is not supported'));
  if (s.type !== undefined && !TYPES.includes(s.type)) {
    causes.push({ reason: 'FieldValueNotSupported', field: `${path}.type`, message: `Unsupported value: ${JSON.stringify(s.type)}: supported values: ${TYPES.map((t) => JSON.stringify(t)).join(', ')}` });
  }
  if (s.uniqueItems === true) causes.push(forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.additionalProperties !== undefined && s.properties !== undefined && s.additionalProperties !== false) {
    causes.push(forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  if (s.pattern !== undefined && !compiled(s.pattern)) causes.push(invalidType(`${path}.pattern`, s.pattern, 'must be a valid regular expression, but isn\'t'));
  causes.push(...listAndMapTypes(s, path));
  for (const [k, p] of Object.entries(s.properties ?? {})) causes.push(...openApiRules(p, `${path}.properties[${k}]`));
  if (s.items) causes.push(...openApiRules(s.items, `${path}.items`));
  if (typeof s.additionalProperties === 'object') causes.push(...openApiRules(s.additionalProperties, `${path}.additionalProperties`));
  return causes;
}

function structural(s: JsonSchema, level: Level, path: string): Cause[] {
  const causes: Cause[] = [];
  if (s.type === 'array' && !s.items) causes.push(required(`${path}.items`, 'must be specified'));
  if (s.items) causes.push(...structural(s.items, 'item', `${path}.items`));
  // A metadata field below the root is a field like any other (an ObjectMeta controller-gen writes
  // into a jobTemplate); only an embedded resource's must be an object, as the root's.
  for (const [k, p] of Object.entries(s.properties ?? {})) causes.push(...structural(p, 'field', `${path}.properties[${k}]`));
  const metadata = s.properties?.['metadata'];
  if (metadata && level !== 'root' && s['x-kubernetes-embedded-resource'] && metadata.type !== 'object') causes.push(invalidType(`${path}.properties[metadata].type`, metadata.type ?? '', 'must be object'));
  if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
    if (level === 'root') causes.push(forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    if (typeof s.additionalProperties === 'object') causes.push(...structural(s.additionalProperties, 'field', `${path}.additionalProperties`));
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  if (intOrString && s['x-kubernetes-preserve-unknown-fields']) causes.push(invalidBool(`${path}.x-kubernetes-preserve-unknown-fields`, 'must be false if x-kubernetes-int-or-string is true'));
  if (s['x-kubernetes-embedded-resource'] && s.type !== 'object') {
    causes.push(s.type ? invalidType(`${path}.type`, s.type, 'must be object if x-kubernetes-embedded-resource is true') : required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!s.type && !intOrString && !s['x-kubernetes-preserve-unknown-fields']) {
    const where = level === 'root' ? 'at the root' : level === 'item' ? 'for specified array items' : 'for specified object fields';
    causes.push(required(`${path}.type`, `must not be empty ${where}`));
  }
  if (level === 'root' && s.type && s.type !== 'object') causes.push(invalidType(`${path}.type`, s.type, 'must be object at the root'));
  if (level === 'root' && s.properties?.['metadata']) causes.push(...rootMetadata(s.properties['metadata'], `${path}.properties[metadata]`));
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    (s[key] ?? []).forEach((inner, i) => causes.push(...valueValidationOnly(inner, `${path}.${key}[${i}]`, intOrStringPattern(s, key, i))));
  }
  if (s.not) causes.push(...valueValidationOnly(s.not, `${path}.not`, false));
  return causes;
}

function invalidBool(field: string, detail: string): Cause {
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: true: ${detail}` };
}

/** metadata at the root may only restrict name and generateName. */
function rootMetadata(s: JsonSchema, path: string): Cause[] {
  const causes: Cause[] = [];
  if (s.type !== 'object') causes.push(invalidType(`${path}.type`, s.type ?? '', 'must be object'));
  const { type: _t, properties, ...rest } = s;
  const extra = Object.keys(properties ?? {}).some((k) => k !== 'name' && k !== 'generateName') || Object.keys(rest).length > 0;
  if (extra) causes.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  return causes;
}

/** anyOf: [{type: integer}, {type: string}] is how int-or-string may be said; it is allowed types inside. */
function intOrStringPattern(s: JsonSchema, key: 'allOf' | 'anyOf' | 'oneOf', i: number): boolean {
  return key === 'anyOf' && s['x-kubernetes-int-or-string'] === true && (s.anyOf?.[i]?.type === 'integer' || s.anyOf?.[i]?.type === 'string');
}

/** Inside allOf/anyOf/oneOf/not only value validations may appear (the structural rule). */
function valueValidationOnly(s: JsonSchema, path: string, allowType: boolean): Cause[] {
  const causes: Cause[] = [];
  if (s.type && !allowType) causes.push(forbidden(`${path}.type`, 'must be empty to be structural'));
  if (s.additionalProperties !== undefined) causes.push(forbidden(`${path}.additionalProperties`, 'must be undefined to be structural'));
  if (s.default !== undefined) causes.push(forbidden(`${path}.default`, 'must be undefined to be structural'));
  if (s.description) causes.push(forbidden(`${path}.description`, 'must be empty to be structural'));
  if (s.nullable) causes.push(forbidden(`${path}.nullable`, 'must be false to be structural'));
  if (s['x-kubernetes-preserve-unknown-fields']) causes.push(forbidden(`${path}.x-kubernetes-preserve-unknown-fields`, 'must be false to be structural'));
  if (s['x-kubernetes-embedded-resource']) causes.push(forbidden(`${path}.x-kubernetes-embedded-resource`, 'must be false to be structural'));
  if (s['x-kubernetes-int-or-string']) causes.push(forbidden(`${path}.x-kubernetes-int-or-string`, 'must be false to be structural'));
  for (const [k, p] of Object.entries(s.properties ?? {})) causes.push(...valueValidationOnly(p, `${path}.properties[${k}]`, false));
  if (s.items) causes.push(...valueValidationOnly(s.items, `${path}.items`, false));
  // A value validation may not reason about metadata: it could restrict what the API server sets.
  if (s.properties?.['metadata']) causes.push(forbidden(`${path}.properties[metadata]`, 'must not be specified in a nested context'));
  return causes;
}

/** Each default must be pruned already and pass its own schema (checked once the schema is structural). */
function defaults(s: JsonSchema, path: string): Cause[] {
  const causes: Cause[] = [];
  if (s.default !== undefined) {
    const field = `${path}.default`;
    const copy = structuredClone({ value: s.default });
    if (prune(copy, { type: 'object', properties: { value: s } }).length) {
      causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(s.default)}: must not have unknown fields` });
    }
    const valueCauses = validateValueAt(s.default, s, field);
    causes.push(...valueCauses);
    // A default must also pass the validation rules of its schema (itself as oldSelf).
    if (!valueCauses.length && JSON.stringify(s).includes('"x-kubernetes-validations"')) causes.push(...runRules(s, s.default, s.default, field));
  }
  for (const [k, p] of Object.entries(s.properties ?? {})) causes.push(...defaults(p, `${path}.properties[${k}]`));
  if (s.items) causes.push(...defaults(s.items, `${path}.items`));
  return causes;
}

const goStrings = (values: string[]): string => `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;

/** x-kubernetes-map-type / list-type / list-map-keys where they can apply, with keys the items require. */
function listAndMapTypes(s: JsonSchema, path: string): Cause[] {
  const causes: Cause[] = [];
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined) {
    if (s.type !== 'object') causes.push(s.type ? invalidType(`${path}.type`, s.type, 'must be object if x-kubernetes-map-type is specified') : required(`${path}.type`, 'must be object if x-kubernetes-map-type is specified'));
    if (mapType !== 'atomic' && mapType !== 'granular') causes.push({ reason: 'FieldValueNotSupported', field: `${path}.x-kubernetes-map-type`, message: `Unsupported value: ${JSON.stringify(mapType)}: supported values: "atomic", "granular"` });
  }
  const listType = s['x-kubernetes-list-type'];
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  if (listType !== undefined) {
    if (s.type !== 'array') causes.push(s.type ? invalidType(`${path}.type`, s.type, 'must be array if x-kubernetes-list-type is specified') : required(`${path}.type`, 'must be array if x-kubernetes-list-type is specified'));
    if (!['atomic', 'set', 'map'].includes(listType)) causes.push({ reason: 'FieldValueNotSupported', field: `${path}.x-kubernetes-list-type`, message: `Unsupported value: ${JSON.stringify(listType)}: supported values: "atomic", "set", "map"` });
  }
  if (keys.length && listType !== 'map') {
    causes.push(listType ? invalidType(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty') : required(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType !== 'map') return causes;
  if (!keys.length) causes.push(required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
  const items = s.items;
  if (!items) return [...causes, required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map')];
  if (items.type !== 'object') return [...causes, invalidType(`${path}.items.type`, items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map")];
  if (keys.some((k) => !items.properties?.[k])) {
    causes.push({ reason: 'FieldValueInvalid', field: `${path}.x-kubernetes-list-map-keys`, message: `Invalid value: ${goStrings(keys)}: entries must all be names of item properties` });
    return causes;
  }
  if (new Set(keys).size !== keys.length) causes.push({ reason: 'FieldValueInvalid', field: `${path}.x-kubernetes-list-map-keys`, message: `Invalid value: ${goStrings(keys)}: must not contain duplicate entries` });
  for (const k of keys) {
    const property = items.properties![k]!;
    if (!['string', 'integer', 'number', 'boolean'].includes(property.type ?? '')) {
      causes.push(invalidType(`${path}.items.properties[${k}].type`, property.type ?? '', "must be a scalar type if parent array's x-kubernetes-list-type is map"));
    }
    if (property.default === undefined && !(items.required ?? []).includes(k)) {
      causes.push(required(`${path}.items.properties[${k}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
  }
  return causes;
}
