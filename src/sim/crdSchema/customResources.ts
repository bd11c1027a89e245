import type { KubeObject } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { badRequest } from '../../shared/apiErrors.ts';
import type { DecodingContext } from '../vocabulary/fieldValidation.ts';
import { applySchemaDefaults } from './defaulting.ts';
import { pruneDisallowedNulls } from './nullPruning.ts';
import type { JsonSchema } from './jsonSchema.ts';
import { prune } from './pruning.ts';
import { validateAgainstSchema, validateStatusAgainstSchema } from './valueValidation.ts';
import { runRules } from './cel/ruleSandbox.ts';

// Custom resources through their CRD's schema, at the points kube-apiserver applies it: decoding
// prunes unknown fields (refused under fieldValidation=Strict, a warning under Warn) and applies
// defaults; create and update validate the values, then evaluate x-kubernetes-validations rules
// (with the stored object as oldSelf on update).

/** The schema of the version `info` serves, read from its CRD as stored (undefined for built-ins). */
export function customResourceSchema(crd: Readonly<KubeObject> | undefined, info: ResourceInfo): JsonSchema | undefined {
  if (info.source !== 'crd') return undefined;
  const versions = (crd?.spec as { versions?: { name?: string; schema?: { openAPIV3Schema?: JsonSchema } }[] } | undefined)?.versions;
  return versions?.find((v) => v.name === info.version)?.schema?.openAPIV3Schema;
}

/** Prunes and defaults `obj` in place; throws 400 for unknown fields under Strict. */
export function decodeCustomResource(info: ResourceInfo, schema: JsonSchema | undefined, obj: KubeObject, decoding: DecodingContext): void {
  if (!schema) return;
  const target = obj as unknown as Record<string, unknown>;
  // Pruning works on a copy first so Strict refuses without having changed anything.
  const unknown = prune(structuredClone(target), schema);
  if (unknown.length && decoding.mode === 'Strict') {
    throw badRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  }
  if (unknown.length) {
    if (decoding.mode === 'Warn') decoding.warnings?.push(...unknown.map((f) => `unknown field "${f}"`));
    prune(target, schema);
  }
  pruneDisallowedNulls(target, schema);
  applySchemaDefaults(target, schema);
}

export interface CustomResourceChecks {
  /** The scale subresource's replica checks: after the schema's causes, before the rules', as apiextensions orders them. */
  scaleCauses?: Cause[];
  /** A /status write: the status alone is checked against its schema. */
  statusWrite?: boolean;
}

export function validateCustomResource(schema: JsonSchema | undefined, obj: KubeObject, old?: KubeObject, { scaleCauses = [], statusWrite = false }: CustomResourceChecks = {}): Cause[] {
  if (!schema) return scaleCauses;
  const body = obj as unknown as Record<string, unknown>;
  const schemaCauses = statusWrite ? validateStatusAgainstSchema(body, schema) : validateAgainstSchema(body, schema);
  const causes = [...schemaCauses, ...scaleCauses];
  if (!hasRules(schema)) return causes;
  // Values of the wrong type, size or shape would make rules fail or run long: they are not run then.
  if (schemaCauses.some((c) => BLOCKING.has(c.reason))) return [...causes, RULES_NOT_CHECKED];
  return [...causes, ...runRules(schema, obj, old)];
}

const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);
const RULES_NOT_CHECKED: Cause = {
  reason: 'FieldValueInvalid',
  field: '<nil>',
  message: 'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
};

const withRules = new WeakMap<JsonSchema, boolean>();

/** Whether any node of the schema has x-kubernetes-validations (remembered per stored schema). */
function hasRules(schema: JsonSchema): boolean {
  let known = withRules.get(schema);
  if (known === undefined) {
    known = JSON.stringify(schema).includes('"x-kubernetes-validations"');
    withRules.set(schema, known);
  }
  return known;
}
