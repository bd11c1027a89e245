import { evaluate } from '@marcbachmann/cel-js';
import { forbidden } from '../../shared/apiErrors.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { AdmissionAttributes } from './admissionAttributes.ts';
import type { Webhook } from './webhookConfigurations.ts';

// A webhook's matchConditions: CEL expressions over `object`, `oldObject` and `request` (the
// AdmissionRequest), all of which must hold for the webhook to be called. As kube-apiserver
// decides: any condition false skips the webhook; otherwise a condition that cannot be evaluated
// fails the request (403) under failurePolicy Fail and skips the webhook under Ignore.
// `authorizer` and `params` are not available (an expression using them cannot be evaluated).

/** JSON integers as CEL ints (BigInt), so `object.spec.replicas > 1` compares as in the API server. */
function celValue(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(celValue);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, celValue(v)]));
  return value;
}

function objectValue(obj: Readonly<KubeObject> | undefined, a: AdmissionAttributes, version: string): unknown {
  if (!obj) return null;
  return celValue({ ...obj, apiVersion: a.group ? `${a.group}/${version}` : version });
}

function requestValue(a: AdmissionAttributes, version: string, user: { username: string; groups: readonly string[] }, dryRun: boolean): unknown {
  return celValue({
    kind: { group: a.group, version, kind: a.kind },
    resource: { group: a.group, version, resource: a.resource },
    subResource: a.subresource,
    requestKind: { group: a.group, version: a.version, kind: a.kind },
    requestResource: { group: a.group, version: a.version, resource: a.resource },
    requestSubResource: a.subresource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: { username: user.username, groups: [...user.groups] },
    dryRun,
  });
}

/** Whether the webhook is to be called; throws the API server's 403 when a condition fails to evaluate under Fail. */
export function matchConditionsHold(webhook: Webhook, a: AdmissionAttributes, version: string, user: { username: string; groups: readonly string[] }, dryRun: boolean): boolean {
  if (webhook.matchConditions.length === 0) return true;
  const context = {
    object: objectValue(a.object, a, version),
    oldObject: objectValue(a.oldObject, a, version),
    request: requestValue(a, version, user, dryRun),
  };
  const errors: string[] = [];
  for (const condition of webhook.matchConditions) {
    let result: unknown;
    try {
      result = evaluate(condition.expression, context);
    } catch (err) {
      errors.push(`matchCondition "${condition.name}": ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      continue;
    }
    if (result === false) return false;
    if (result !== true) errors.push(`matchCondition "${condition.name}": expression must evaluate to a bool, got ${typeof result}`);
  }
  if (errors.length === 0) return true;
  if (webhook.failurePolicy === 'Ignore') return false;
  throw forbidden(a.group, a.resource, a.name, errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
}
