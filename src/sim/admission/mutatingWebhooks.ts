import type { KubeObject } from '../../shared/k8s.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import type { AdmissionAttributes } from './admissionAttributes.ts';
import { invocationFor, type MatchContext } from './matching.ts';
import { callAdmissionWebhook, patched, type CallContext } from './webhookOutcome.ts';
import type { Webhook } from './webhookConfigurations.ts';

// Mutating webhooks, one after the other in the API server's order, each seeing the object as the
// ones before it left it. A webhook whose patch changes the object makes the earlier webhooks
// with reinvocationPolicy IfNeeded run once more, after all of them (at most one extra round).

/** The object after every mutating webhook that applies (the same object when none changed it). */
export async function runMutatingWebhooks(webhooks: readonly Webhook[], attributes: AdmissionAttributes, match: MatchContext, c: CallContext): Promise<Readonly<KubeObject> | undefined> {
  let object = attributes.object;
  let previouslyInvoked = new Set<string>();
  const reinvoke = new Set<string>();
  let changedAny = false;

  const round = async (reinvocation: boolean): Promise<void> => {
    for (const webhook of webhooks) {
      if (reinvocation && !reinvoke.has(webhook.id)) continue;
      const a = { ...attributes, object };
      const invocation = invocationFor(webhook, a, match);
      if (!invocation) continue;
      const response = await callAdmissionWebhook(invocation, a, c, true);
      const next = response?.patch ? patched(webhook.name, object, response.patch, invocation.version) : undefined;
      if (next && !jsonEqual(next, object)) {
        object = next;
        changedAny = true;
        for (const id of previouslyInvoked) reinvoke.add(id);
        previouslyInvoked = new Set();
      }
      if (webhook.reinvocationPolicy === 'IfNeeded') previouslyInvoked.add(webhook.id);
    }
  };

  await round(false);
  if (changedAny && reinvoke.size > 0) await round(true);
  return object;
}
