import type { Cause } from '../../shared/apiErrors.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { duplicate, invalid, isRecord, notSupported, records, required } from './fieldErrors.ts';
import { validateLabelSelector } from './labelSelectorObject.ts';
import { validateWebhookClientConfig } from './webhookClientConfig.ts';

// What kube-apiserver checks in a webhook configuration (admissionregistration/validation:
// validate{Validating,Mutating}Webhook, validateRuleWithOperations, validateAdmissionReviewVersions),
// with its field paths and wording. CEL matchConditions are not checked here.

type Hook = Record<string, unknown>;

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((s) => String(s)) : []);

/** A Go slice of a named string type, as %#v prints it. */
const goSlice = (type: string, values: string[]): string => `[]${type}{${values.map((v) => JSON.stringify(v)).join(', ')}}`;

function validateList(values: string[], field: string, what: string): Cause[] {
  if (values.length === 0) return [required(field)];
  if (values.length > 1 && values.includes('*')) return [{ reason: 'FieldValueInvalid', field, message: `Invalid value: ${goSlice('string', values)}: if '*' is present, must not specify other ${what}` }];
  return [];
}

function validateRule(rule: Hook, at: string): Cause[] {
  const causes: Cause[] = [];
  const operations = strings(rule.operations);
  if (operations.length === 0) causes.push(required(`${at}.operations`));
  if (operations.length > 1 && operations.includes('*')) {
    causes.push({ reason: 'FieldValueInvalid', field: `${at}.operations`, message: `Invalid value: ${goSlice('admissionregistration.OperationType', operations)}: if '*' is present, must not specify other operations` });
  }
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) causes.push(notSupported(`${at}.operations[${i}]`, op, OPERATIONS));
  });
  causes.push(...validateList(strings(rule.apiGroups), `${at}.apiGroups`, 'API groups'));
  const versions = strings(rule.apiVersions);
  causes.push(...validateList(versions, `${at}.apiVersions`, 'API versions'));
  versions.forEach((v, i) => {
    if (v === '') causes.push(required(`${at}.apiVersions[${i}]`));
  });
  const resources = strings(rule.resources);
  if (resources.length === 0) causes.push(required(`${at}.resources`));
  resources.forEach((r, i) => {
    if (r === '') causes.push(required(`${at}.resources[${i}]`));
  });
  if (resources.length > 1 && resources.includes('*/*')) causes.push(invalid(`${at}.resources`, resources, "if '*/*' is present, must not specify other resources"));
  if (resources.includes('*') && resources.some((r) => r !== '*' && r !== '' && !r.includes('/'))) {
    causes.push(invalid(`${at}.resources`, resources, "if '*' is present, must not specify other resources without subresources"));
  }
  if (rule.scope !== undefined && rule.scope !== null && !SCOPES.includes(String(rule.scope))) causes.push(notSupported(`${at}.scope`, rule.scope, SCOPES));
  return causes;
}

/** IsFullyQualifiedName: a DNS subdomain of at least three segments (`pods.policy.example.com`). */
function validateHookName(name: unknown, field: string): Cause[] {
  if (typeof name !== 'string' || name === '') return [required(field)];
  const subdomain = validateName(name, 'subdomain', field);
  if (subdomain.length > 0) return [invalid(field, name, subdomain.map((c) => c.message.replace(/^Invalid value: "[^"]*": /, '')).join(','))];
  if (name.split('.').length < 3) return [invalid(field, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateReviewVersions(versions: unknown, field: string): Cause[] {
  const given = strings(versions);
  if (given.length === 0) return [required(field, `must specify one of ${REVIEW_VERSIONS.join(', ')}`)];
  const causes: Cause[] = [];
  const seen = new Set<string>();
  given.forEach((v, i) => {
    if (seen.has(v)) {
      causes.push(invalid(`${field}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    causes.push(...validateName(v, 'dns1035', `${field}[${i}]`));
  });
  if (!given.some((v) => REVIEW_VERSIONS.includes(v))) causes.push(invalid(field, given, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  return causes;
}

function validateHook(hook: Hook, at: string, mutating: boolean): Cause[] {
  const causes = validateHookName(hook.name, `${at}.name`);
  records(hook.rules).forEach((rule, i) => causes.push(...validateRule(rule, `${at}.rules[${i}]`)));
  const optional = (key: string, supported: string[]): void => {
    const v = hook[key];
    if (v !== undefined && v !== null && !supported.includes(String(v))) causes.push(notSupported(`${at}.${key}`, v, supported));
  };
  optional('failurePolicy', FAILURE_POLICIES);
  optional('matchPolicy', MATCH_POLICIES);
  if (hook.sideEffects === undefined || hook.sideEffects === null) causes.push(required(`${at}.sideEffects`, `must specify one of ${NO_SIDE_EFFECTS.join(', ')}`));
  else optional('sideEffects', NO_SIDE_EFFECTS);
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1)) causes.push(invalid(`${at}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'));
  causes.push(...validateLabelSelector(hook.namespaceSelector, `${at}.namespaceSelector`));
  causes.push(...validateLabelSelector(hook.objectSelector, `${at}.objectSelector`));
  if (mutating) optional('reinvocationPolicy', REINVOCATION_POLICIES);
  causes.push(...validateWebhookClientConfig(isRecord(hook.clientConfig) ? hook.clientConfig : {}, `${at}.clientConfig`));
  return causes;
}

/** The causes for a configuration's webhooks: each webhook's own, its review versions, names used twice. */
export function validateWebhooks(webhooks: unknown, mutating: boolean): Cause[] {
  const causes: Cause[] = [];
  const names = new Set<string>();
  records(webhooks).forEach((hook, i) => {
    const at = `webhooks[${i}]`;
    causes.push(...validateHook(hook, at, mutating));
    causes.push(...validateReviewVersions(hook.admissionReviewVersions, `${at}.admissionReviewVersions`));
    if (typeof hook.name === 'string' && hook.name !== '') {
      if (names.has(hook.name)) causes.push(duplicate(`${at}.name`, hook.name));
      names.add(hook.name);
    }
  });
  return causes;
}
