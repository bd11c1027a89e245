import type { Cause } from '../../../shared/apiErrors.ts';
import type { JsonSchema } from '../jsonSchema.ts';
import { compileExpression, issueText, type Selection } from './celCompile.ts';
import { withTypeMeta } from './celValues.ts';
import { operandTypeError } from './operandTypes.ts';
import { costExceededDetail, estimatedIterations, STATIC_COST_LIMIT } from './costEstimate.ts';
import { goRule, REASONS, type ValidationRule } from './validationRule.ts';

// What the apiextensions validator requires of x-kubernetes-validations before it accepts a
// CRD: each rule given, compiling to a bool, reading only fields the schema declares, reading
// oldSelf only where an old value can be found, a message without line breaks, a known reason,
// and a messageExpression that compiles to a string.

/** The causes for every rule in `schema` (a version's openAPIV3Schema at `path`). */
export function validateRuleDefinitions(schema: JsonSchema, path: string): Cause[] {
  const causes: Cause[] = [];
  visit(schema, path, true, true, causes);
  return causes;
}

function visit(schema: JsonSchema, path: string, isRoot: boolean, correlatable: boolean, causes: Cause[]): void {
  const seen = isRoot || schema['x-kubernetes-embedded-resource'] ? withTypeMeta(schema) : schema;
  const rules: unknown = schema['x-kubernetes-validations'];
  if (rules !== undefined && !Array.isArray(rules)) causes.push(wrongType(`${path}.x-kubernetes-validations`, rules, 'must be a list of rules'));
  if (Array.isArray(rules)) {
    rules.forEach((rule: unknown, i) => {
      const rulePath = `${path}.x-kubernetes-validations[${i}]`;
      const malformed = malformedRule(rule, rulePath);
      causes.push(...(malformed.length ? malformed : checkRule(rule as ValidationRule, seen, rulePath, path, correlatable)));
    });
  }
  for (const [key, property] of Object.entries(schema.properties ?? {})) visit(property, `${path}.properties[${key}]`, false, correlatable, causes);
  if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties, `${path}.additionalProperties`, false, correlatable, causes);
  // Items of a list are found in the old object only by their keys, in list-type=map lists.
  if (schema.items) visit(schema.items, `${path}.items`, false, correlatable && schema['x-kubernetes-list-type'] === 'map', causes);
}

const wrongType = (field: string, value: unknown, detail: string): Cause => ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value) ?? 'null'}: ${detail}` });

/** A rule that is not an object of strings (as the API server's decoding would refuse it). */
function malformedRule(rule: unknown, path: string): Cause[] {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return [wrongType(path, rule, 'must be an object with a rule')];
  const fields = ['rule', 'message', 'messageExpression', 'reason', 'fieldPath'] as const;
  return fields.filter((f) => f in rule && typeof (rule as Record<string, unknown>)[f] !== 'string').map((f) => wrongType(`${path}.${f}`, (rule as Record<string, unknown>)[f], 'must be a string'));
}

function checkRule(rule: ValidationRule, schema: JsonSchema, path: string, nodePath: string, correlatable: boolean): Cause[] {
  const causes: Cause[] = [];
  const invalid = (field: string, detail: string): Cause => ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${goRule(rule)}: ${detail}` });
  if (!rule.rule?.trim()) causes.push({ reason: 'FieldValueRequired', field: `${path}.rule`, message: 'Required value: rule is not specified' });
  if (rule.message !== undefined && rule.message.length > 0 && !rule.message.trim()) {
    causes.push({ reason: 'FieldValueInvalid', field: `${path}.message`, message: `Invalid value: ${JSON.stringify(rule.message)}: message must be non-empty if specified` });
  }
  if (rule.message?.includes('\n')) causes.push({ reason: 'FieldValueInvalid', field: `${path}.message`, message: `Invalid value: ${JSON.stringify(rule.message)}: message must not contain line breaks` });
  if (rule.reason !== undefined && !REASONS.includes(rule.reason)) {
    causes.push({ reason: 'FieldValueNotSupported', field: `${path}.reason`, message: `Unsupported value: ${JSON.stringify(rule.reason)}: supported values: ${REASONS.map((r) => JSON.stringify(r)).join(', ')}` });
  }
  if (rule.fieldPath !== undefined && !fieldPathExists(schema, rule.fieldPath)) {
    causes.push({ reason: 'FieldValueInvalid', field: `${path}.fieldPath`, message: `Invalid value: ${JSON.stringify(rule.fieldPath)}: fieldPath must be a valid path` });
  }
  if (!rule.rule?.trim()) return causes;
  const compiled = compileExpression(rule.rule);
  if (!compiled.ok) return [...causes, invalid(`${path}.rule`, `compilation failed: ${compiled.detail}`)];
  const { type, usesOldSelf, selections, wholeSelection } = compiled.compiled;
  const selectedType = wholeSelection ? schemaAt(schema, wholeSelection)?.type : undefined;
  if ((type !== 'bool' && type !== 'dyn') || (selectedType !== undefined && selectedType !== 'boolean')) causes.push(invalid(`${path}.rule`, 'cel expression must evaluate to a bool'));
  const undefinedField = selections.map((s) => undefinedFieldIn(schema, s, rule.rule!)).find((u) => u !== undefined);
  const typeError = undefinedField ? undefined : operandTypeError(compiled.compiled.program.ast, schema, rule.rule);
  if (undefinedField ?? typeError) causes.push(invalid(`${path}.rule`, `compilation failed: ${undefinedField ?? typeError}`));
  const estimate = estimatedIterations(compiled.compiled.program.ast, schema);
  if (estimate > STATIC_COST_LIMIT) causes.push({ reason: 'FieldValueForbidden', field: `${path}.rule`, message: `Forbidden: ${costExceededDetail(estimate)}` });
  if (usesOldSelf && !correlatable) causes.push(invalid(`${path}.rule`, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${nodePath}`));
  if (rule.messageExpression !== undefined) causes.push(...checkMessageExpression(rule, schema, `${path}.messageExpression`, invalid));
  return causes;
}

function checkMessageExpression(rule: ValidationRule, schema: JsonSchema, field: string, invalid: (field: string, detail: string) => Cause): Cause[] {
  const text = rule.messageExpression ?? '';
  if (!text.trim()) return [{ reason: 'FieldValueRequired', field, message: 'Required value: messageExpression must be non-empty if specified' }];
  const compiled = compileExpression(text);
  if (!compiled.ok) return [invalid(field, `messageExpression compilation failed: ${compiled.detail}`)];
  const { type, wholeSelection } = compiled.compiled;
  const selectedType = wholeSelection ? schemaAt(schema, wholeSelection)?.type : undefined;
  if ((type !== 'string' && type !== 'dyn') || (selectedType !== undefined && selectedType !== 'string')) return [invalid(field, 'must evaluate to a string')];
  return [];
}

const CEL_TYPES: Record<string, string> = { string: 'string', integer: 'int', number: 'double', boolean: 'bool' };

/** cel-go's `undefined field 'x'` for a selection from self the schema does not declare. */
function undefinedFieldIn(schema: JsonSchema, selection: Selection, text: string): string | undefined {
  let current: JsonSchema | undefined = schema;
  for (const [i, step] of selection.steps.entries()) {
    if (!current) return undefined;
    const offset = selection.offsets[i] ?? 0;
    const additional: JsonSchema | undefined = typeof current.additionalProperties === 'object' ? current.additionalProperties : undefined;
    if (step === null) {
      current = current.items ?? additional;
      continue;
    }
    if (current.type && current.type !== 'object' && current.type !== 'array') {
      return issueText(text, offset, `type '${CEL_TYPES[current.type] ?? current.type}' does not support field selection`);
    }
    if (current.type !== 'object' || !current.properties || additional || current['x-kubernetes-preserve-unknown-fields']) {
      current = additional;
      continue;
    }
    const next: JsonSchema | undefined = current.properties[step];
    if (!next) return issueText(text, offset, `undefined field '${step}'`);
    current = next;
  }
  return undefined;
}

/** The schema a selection from self reaches, if it reaches a declared one. */
function schemaAt(schema: JsonSchema, selection: Selection): JsonSchema | undefined {
  let current: JsonSchema | undefined = schema;
  for (const step of selection.steps) {
    const additional: JsonSchema | undefined = typeof current?.additionalProperties === 'object' ? current.additionalProperties : undefined;
    current = step === null ? current?.items ?? additional : current?.properties?.[step] ?? additional;
  }
  return current;
}

/** A rule's fieldPath (`.spec.replicas`, `.items['a.b']`) names a field the schema declares. */
function fieldPathExists(schema: JsonSchema, fieldPath: string): boolean {
  if (!fieldPath.startsWith('.') && !fieldPath.startsWith('[')) return false;
  const steps = [...fieldPath.matchAll(/\.([A-Za-z_][\w-]*)|\['([^']*)'\]|\[(\d+)\]/g)];
  if (steps.map((m) => m[0]).join('') !== fieldPath) return false;
  let current: JsonSchema | undefined = schema;
  for (const m of steps) {
    if (!current) return false;
    if (m[3] !== undefined) current = current.items;
    else {
      const name = m[1] ?? m[2] ?? '';
      const additional: JsonSchema | undefined = typeof current.additionalProperties === 'object' ? current.additionalProperties : undefined;
      current = current.properties?.[name] ?? additional;
    }
  }
  return current !== undefined;
}
