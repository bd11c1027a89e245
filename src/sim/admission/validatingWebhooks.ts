import type { AdmissionAttributes } from './admissionAttributes.ts';
import { invocationFor, type MatchContext } from './matching.ts';
import { callAdmissionWebhook, type CallContext } from './webhookOutcome.ts';
import type { Webhook } from './webhookConfigurations.ts';

// Validating webhooks, called in parallel as kube-apiserver calls them: the request goes on only
// when every one that applies allows it; the first refusal (in the webhooks' order) is the answer.

export async function runValidatingWebhooks(webhooks: readonly Webhook[], attributes: AdmissionAttributes, match: MatchContext, c: CallContext): Promise<void> {
  const invocations = webhooks.map((w) => invocationFor(w, attributes, match)).filter((i) => i !== undefined);
  if (invocations.length === 0) return;
  const outcomes = await Promise.allSettled(invocations.map((i) => callAdmissionWebhook(i, attributes, c, false)));
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') throw outcome.reason;
  }
}
