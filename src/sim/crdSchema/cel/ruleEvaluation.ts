import type { Cause } from '../../../shared/apiErrors.ts';
import { childPath, isObject, type JsonSchema } from '../jsonSchema.ts';
import { compileExpression } from './celCompile.ts';
import { toCelValue, withTypeMeta, type DurationParser } from './celValues.ts';
import { failureCause, invalidCause, pathBelow, ruleMessage, type ValidationRule } from './validationRule.ts';

// Evaluating every x-kubernetes-validations rule of a custom resource as kube-apiserver does:
// each rule on the value at its node (nulls and absent values are not checked), transition
// rules (those reading oldSelf) only on update and only where the old object has a value at
// the same place — object fields by name, map entries by key, list-type=map items by their keys.

export interface RuleProgress {
  /** Called before each rule runs, so a rule that runs too long can be named. */
  running(field: string, schemaType: string, rule: string): void;
}

export interface RuleContext {
  duration: DurationParser;
  progress?: RuleProgress;
}

/**
 * The causes for the rules `obj` fails; `old` is the stored object on update. `at` names a value
 * checked on its own (a schema's default) instead of a whole custom resource.
 */
export function evaluateRules(schema: JsonSchema, obj: unknown, old: unknown, context: RuleContext, at?: string): Cause[] {
  const causes: Cause[] = [];
  visit(schema, obj, old, at ?? '', at === undefined, context, causes);
  return causes;
}

/** The path kube-apiserver names a node by: the root has none (it prints as <nil>). */
const fieldName = (path: string): string => path || '<nil>';

function visit(schema: JsonSchema, value: unknown, old: unknown, path: string, isRoot: boolean, context: RuleContext, causes: Cause[]): void {
  if (value === null || value === undefined) return;
  const rules = Array.isArray(schema['x-kubernetes-validations']) ? schema['x-kubernetes-validations'] : [];
  if (rules.length) {
    const seen = isRoot || schema['x-kubernetes-embedded-resource'] ? withTypeMeta(schema) : schema;
    const self = toCelValue(value, seen, context.duration);
    const oldSelf = old === null || old === undefined ? undefined : toCelValue(old, seen, context.duration);
    for (const rule of rules) causes.push(...runRule(rule, schema.type ?? '', fieldName(path), self, oldSelf, context));
  }
  visitChildren(schema, value, old, path, isRoot, context, causes);
}

function visitChildren(schema: JsonSchema, value: unknown, old: unknown, path: string, isRoot: boolean, context: RuleContext, causes: Cause[]): void {
  if (Array.isArray(value) && schema.items) {
    const oldItem = correlateListItems(schema, old);
    value.forEach((item, i) => visit(schema.items!, item, oldItem(item), childPath(path, i), false, context, causes));
  } else if (isObject(value)) {
    const oldObject = isObject(old) ? old : undefined;
    const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    for (const [key, child] of Object.entries(value)) {
      if (isRoot && (key === 'apiVersion' || key === 'kind' || key === 'metadata')) continue;
      const childSchema = schema.properties?.[key] ?? additional;
      if (childSchema) visit(childSchema, child, oldObject?.[key], childPath(path, key), false, context, causes);
    }
  }
}

/** Old items correlate with new ones only in list-type=map lists, by their key fields. */
function correlateListItems(schema: JsonSchema, old: unknown): (item: unknown) => unknown {
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(old) || !keys.length) return () => undefined;
  const identity = (item: unknown): string => JSON.stringify(keys.map((k) => (isObject(item) ? item[k] : undefined) ?? null));
  const byKey = new Map(old.map((item) => [identity(item), item]));
  return (item) => byKey.get(identity(item));
}

function runRule(rule: ValidationRule, schemaType: string, path: string, self: unknown, oldSelf: unknown, context: RuleContext): Cause[] {
  const compiled = compileExpression(rule.rule ?? '');
  // Rules that do not compile were refused with the CRD.
  if (!compiled.ok) return [];
  const { program, usesOldSelf } = compiled.compiled;
  if (usesOldSelf && oldSelf === undefined) return [];
  context.progress?.running(path, schemaType, rule.rule ?? '');
  const activation = { self, oldSelf: oldSelf ?? null };
  let result: unknown;
  try {
    result = program(activation);
  } catch (err) {
    return [invalidCause(path, schemaType, `${runtimeErrorText(err)} evaluating rule: ${ruleMessage(rule)}`)];
  }
  if (result === true) return [];
  if (typeof result !== 'boolean') return [invalidCause(path, schemaType, `rule did not evaluate to a bool: ${ruleMessage(rule)}`)];
  return [failure(rule, schemaType, path, activation)];
}

function failure(rule: ValidationRule, schemaType: string, path: string, activation: Record<string, unknown>): Cause {
  const field = pathBelow(path, rule.fieldPath);
  if (!rule.messageExpression) return failureCause(field, schemaType, ruleMessage(rule), rule.reason);
  const message = messageFromExpression(rule.messageExpression, activation);
  if ('invalid' in message) return invalidCause(path, schemaType, message.invalid);
  return failureCause(field, schemaType, message.text ?? ruleMessage(rule), rule.reason);
}

/** A messageExpression's text; on an evaluation error the rule's message is used instead. */
function messageFromExpression(expression: string, activation: Record<string, unknown>): { text?: string } | { invalid: string } {
  const compiled = compileExpression(expression);
  if (!compiled.ok) return {};
  let text: unknown;
  try {
    text = compiled.compiled.program(activation);
  } catch {
    return {};
  }
  if (typeof text !== 'string') return {};
  if (text.length > 5000) return { invalid: 'messageExpression beyond allowable length of 5000' };
  if (/[\r\n]/.test(text)) return { invalid: 'messageExpression should not contain line breaks' };
  if (!text.trim()) return { invalid: 'messageExpression should evaluate to a non-empty string' };
  return { text };
}

/** cel-go's runtime error words: `no such key: x`, `division by zero`, ... */
function runtimeErrorText(err: unknown): string {
  const e = err as { summary?: string; message?: string };
  const text = e.summary ?? e.message?.split('\n')[0] ?? String(err);
  return text.charAt(0).toLowerCase() + text.slice(1);
}
