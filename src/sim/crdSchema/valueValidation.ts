import type { Cause } from '../../shared/apiErrors.ts';
import { childPath, goValue, isObject, jsonTypeOf, type JsonSchema } from './jsonSchema.ts';

// A custom resource checked against its CRD's schema, with the causes kube-apiserver gives: the
// go-openapi validator's messages ("spec.replicas in body should be greater than or equal to 1")
// wrapped in field errors (Required value, Unsupported value, Too long, Invalid value).

type Causes = Cause[];

const invalid = (field: string, value: unknown, detail: string): Cause => ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${goValue(value)}: ${detail}` });

/** The causes for everything in `obj` (apiVersion/kind/metadata excepted) the schema refuses. */
export function validateAgainstSchema(obj: Record<string, unknown>, schema: JsonSchema): Causes {
  const causes: Causes = [];
  const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
  const rootSchema: JsonSchema = { ...schema, properties: { ...schema.properties } };
  delete rootSchema.properties!['metadata'];
  validateValue(rest, rootSchema, '', causes);
  // At the root, the schema may restrict metadata.name and generateName (and nothing else).
  const meta = schema.properties?.['metadata']?.properties ?? {};
  for (const field of ['name', 'generateName'] as const) {
    const value = isObject(metadata) ? metadata[field] : undefined;
    if (meta[field] && value !== undefined) validateValue(value, meta[field], `metadata.${field}`, causes);
  }
  return causes;
}

/**
 * A /status write's causes: kube-apiserver checks the status alone against the status schema, so
 * its fields are named from inside it (`ready`, not `status.ready`). No status, nothing to check.
 */
export function validateStatusAgainstSchema(obj: Record<string, unknown>, schema: JsonSchema): Causes {
  const causes: Causes = [];
  const statusSchema = schema.properties?.['status'];
  if (obj['status'] !== undefined && obj['status'] !== null && statusSchema) validateValue(obj['status'], statusSchema, '', causes);
  return causes;
}

/**
 * The causes for one value checked on its own (a schema's default), as the API server reports
 * them: under `fieldPrefix` (`…properties[replicas].default`), the messages naming the value's
 * own path.
 */
export function validateValueAt(value: unknown, schema: JsonSchema, fieldPrefix: string): Causes {
  const causes: Causes = [];
  validateValue(value, schema, '', causes);
  return causes.map((c) => ({ ...c, field: c.field ? `${fieldPrefix}.${c.field}` : fieldPrefix }));
}

function typeMatches(value: unknown, schema: JsonSchema): boolean {
  if (value === null) return !!schema.nullable;
  const actual = jsonTypeOf(value);
  if (schema['x-kubernetes-int-or-string']) return actual === 'integer' || actual === 'string';
  if (!schema.type) return true;
  return actual === schema.type || (schema.type === 'number' && actual === 'integer');
}

function validateValue(value: unknown, schema: JsonSchema, path: string, causes: Causes): void {
  // go-openapi's name for the value; at the root it is empty (" in body must be …", as Go prints it).
  const name = path;
  if (!typeMatches(value, schema)) {
    const actual = jsonTypeOf(value);
    causes.push({ reason: 'FieldValueTypeInvalid', field: path, message: `Invalid value: ${JSON.stringify(actual)}: ${name} in body must be of type ${schema.type ?? 'integer or string'}: ${JSON.stringify(actual)}` });
    return;
  }
  if (value === null) return;
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    const supported = schema.enum.map((e) => (typeof e === 'string' ? JSON.stringify(e) : JSON.stringify(JSON.stringify(e)))).join(', ');
    causes.push({ reason: 'FieldValueNotSupported', field: path, message: `Unsupported value: ${goValue(value)}: supported values: ${supported}` });
  }
  if (typeof value === 'string') validateString(value, schema, path, name, causes);
  else if (typeof value === 'number') validateNumber(value, schema, path, name, causes);
  else if (Array.isArray(value)) validateArray(value, schema, path, name, causes);
  else if (isObject(value)) validateObject(value, schema, path, name, causes);
  validateCombinators(value, schema, path, name, causes);
}

function validateString(value: string, schema: JsonSchema, path: string, name: string, causes: Causes): void {
  const length = [...value].length;
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    causes.push({ reason: 'FieldValueTooLong', field: path, message: `Too long: may not be longer than ${schema.maxLength}` });
  }
  if (schema.minLength !== undefined && length < schema.minLength) causes.push(invalid(path, value, `${name} in body should be at least ${schema.minLength} chars long`));
  if (schema.pattern !== undefined && !compiled(schema.pattern)?.test(value)) causes.push(invalid(path, value, `${name} in body should match '${schema.pattern}'`));
}

function validateNumber(value: number, schema: JsonSchema, path: string, name: string, causes: Causes): void {
  if (schema.multipleOf !== undefined && schema.multipleOf > 0 && !Number.isInteger(value / schema.multipleOf)) causes.push(invalid(path, value, `${name} in body should be a multiple of ${schema.multipleOf}`));
  if (schema.maximum !== undefined) {
    if (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum) {
      causes.push(invalid(path, value, `${name} in body should be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${schema.maximum}`));
    }
  }
  if (schema.minimum !== undefined) {
    if (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum) {
      causes.push(invalid(path, value, `${name} in body should be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${schema.minimum}`));
    }
  }
}

function validateArray(value: unknown[], schema: JsonSchema, path: string, name: string, causes: Causes): void {
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    causes.push({ reason: 'FieldValueTooMany', field: path, message: `Too many: ${value.length}: must have at most ${schema.maxItems} items` });
  }
  if (schema.minItems !== undefined && value.length < schema.minItems) causes.push(invalid(path, value, `${name} in body should have at least ${schema.minItems} items`));
  if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) causes.push(invalid(path, value, `${name} in body shouldn't contain duplicates`));
  if (schema.items) value.forEach((item, i) => validateValue(item, schema.items!, childPath(path, i), causes));
  causes.push(...listTypeDuplicates(value, schema, path));
}

/** x-kubernetes-list-type set: no value twice; map: no two items with the same keys. */
function listTypeDuplicates(value: unknown[], schema: JsonSchema, path: string): Causes {
  const listType = schema['x-kubernetes-list-type'];
  if (listType !== 'set' && listType !== 'map') return [];
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const seen = new Set<string>();
  const causes: Causes = [];
  value.forEach((item, i) => {
    const identity = listType === 'set' ? item : isObject(item) ? Object.fromEntries(keys.filter((k) => k in item).map((k) => [k, item[k]])) : item;
    const text = JSON.stringify(identity);
    if (seen.has(text)) causes.push({ reason: 'FieldValueDuplicate', field: childPath(path, i), message: `Duplicate value: ${goValue(identity)}` });
    seen.add(text);
  });
  return causes;
}

function validateObject(value: Record<string, unknown>, schema: JsonSchema, path: string, name: string, causes: Causes): void {
  for (const key of schema.required ?? []) {
    if (!(key in value)) causes.push({ reason: 'FieldValueRequired', field: childPath(path, key), message: 'Required value' });
  }
  const count = Object.keys(value).length;
  if (schema.maxProperties !== undefined && count > schema.maxProperties) {
    causes.push({ reason: 'FieldValueTooMany', field: path, message: `Too many: ${count}: must have at most ${schema.maxProperties} items` });
  }
  if (schema.minProperties !== undefined && count < schema.minProperties) causes.push(invalid(path, value, `${name} in body should have at least ${schema.minProperties} properties`));
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [key, child] of Object.entries(value)) {
    const childSchema = schema.properties?.[key] ?? additional;
    if (childSchema) validateValue(child, childSchema, childPath(path, key), causes);
  }
}

function validateCombinators(value: unknown, schema: JsonSchema, path: string, name: string, causes: Causes): void {
  const passes = (s: JsonSchema): boolean => {
    const inner: Causes = [];
    validateValue(value, s, path, inner);
    return inner.length === 0;
  };
  for (const s of schema.allOf ?? []) validateValue(value, s, path, causes);
  if (schema.anyOf && !schema.anyOf.some(passes)) causes.push(invalid(path, value, `${name} in body must validate at least one schema (anyOf)`));
  if (schema.oneOf && schema.oneOf.filter(passes).length !== 1) causes.push(invalid(path, value, `${name} in body must validate one and only one schema (oneOf)`));
  if (schema.not && passes(schema.not)) causes.push(invalid(path, value, `${name} in body must not validate the schema (not)`));
}

const patterns = new Map<string, RegExp | undefined>();

/** A schema pattern as a JavaScript RegExp (RE2 and JS agree on the patterns CRDs use); undefined if it does not compile. */
export function compiled(pattern: string): RegExp | undefined {
  if (!patterns.has(pattern)) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = undefined;
    }
    if (patterns.size > 1000) patterns.clear();
    patterns.set(pattern, re);
  }
  return patterns.get(pattern);
}
