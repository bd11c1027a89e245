import { isObj, items, obj, setDefault, type Obj } from './defaulting.ts';

// Webhook configuration defaults (admissionregistration/v1 SetDefaults_{Validating,Mutating}Webhook,
// SetDefaults_Rule, SetDefaults_ServiceReference). The sim stores these objects but never calls
// the webhooks they describe. sideEffects and admissionReviewVersions have no default in v1: the
// real server requires them (the sim does not check required fields).

function webhook(w: Obj): void {
  setDefault(w, 'failurePolicy', 'Fail');
  setDefault(w, 'matchPolicy', 'Equivalent');
  setDefault(w, 'namespaceSelector', {});
  setDefault(w, 'objectSelector', {});
  setDefault(w, 'timeoutSeconds', 10);
  for (const rule of items(w, 'rules')) setDefault(rule, 'scope', '*');
  const clientConfig = w.clientConfig;
  if (isObj(clientConfig) && isObj(clientConfig.service)) setDefault(obj(clientConfig, 'service'), 'port', 443);
}

export function validatingWebhookConfigurationDefaults(o: Obj): void {
  for (const w of items(o, 'webhooks')) webhook(w);
}

export function mutatingWebhookConfigurationDefaults(o: Obj): void {
  for (const w of items(o, 'webhooks')) {
    webhook(w);
    setDefault(w, 'reinvocationPolicy', 'Never');
  }
}
