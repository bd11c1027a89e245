import type { Cause } from '../../../shared/apiErrors.ts';

// One entry of x-kubernetes-validations, and the field errors a failing rule becomes, in
// kube-apiserver's words: the node's path (or the rule's fieldPath below it), the schema type
// as the invalid value, the rule's message or `failed rule: <rule>`.

export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
}

export const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

/** The message of a rule without messageExpression. */
export function ruleMessage(rule: ValidationRule): string {
  if (rule.message && rule.message.trim()) return rule.message.trim();
  return `failed rule: ${(rule.rule ?? '').trim()}`;
}

/** The field error for a failing rule, as fieldErrorForReason builds it. */
export function failureCause(field: string, schemaType: string, detail: string, reason: string | undefined): Cause {
  switch (reason) {
    case 'FieldValueForbidden':
      return { reason, field, message: `Forbidden: ${detail}` };
    case 'FieldValueRequired':
      return { reason, field, message: `Required value: ${detail}` };
    case 'FieldValueDuplicate':
      return { reason, field, message: `Duplicate value: ${JSON.stringify(schemaType)}` };
    default:
      return invalidCause(field, schemaType, detail);
  }
}

export function invalidCause(field: string, schemaType: string, detail: string): Cause {
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(schemaType)}: ${detail}` };
}

/** `.spec.replicas` or `.items['a.b']` relative to `path`, as the error's field. */
export function pathBelow(path: string, fieldPath: string | undefined): string {
  if (!fieldPath) return path;
  const relative = fieldPath.replace(/^\./, '').replace(/\['([^']*)'\]/g, '[$1]');
  return path === '<nil>' || !path ? relative : relative.startsWith('[') ? `${path}${relative}` : `${path}.${relative}`;
}

/** The rule as Go's %#v prints apiextensions.ValidationRule in 1.28's field errors. */
export function goRule(rule: ValidationRule): string {
  const reason = rule.reason === undefined ? '(*apiextensions.FieldValueErrorReason)(nil)' : '(*apiextensions.FieldValueErrorReason)(0xc000a1b2c0)';
  const q = (s: string | undefined): string => JSON.stringify(s ?? '');
  return `apiextensions.ValidationRule{Rule:${q(rule.rule)}, Message:${q(rule.message)}, MessageExpression:${q(rule.messageExpression)}, Reason:${reason}, FieldPath:${q(rule.fieldPath)}}`;
}
