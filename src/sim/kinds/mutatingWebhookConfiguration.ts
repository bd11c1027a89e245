import { items, setDefault, type Obj } from './defaulting.ts';
import type { KindModule } from './kindModule.ts';
import { defaultWebhook, WEBHOOK_CONFIGURATION_COLUMNS } from './webhookConfiguration.ts';
import { validateWebhooks } from './webhookValidation.ts';

// MutatingWebhookConfigurations (admissionregistration.k8s.io/v1): a validating webhook's
// defaults, and a webhook is called once per admission unless it asks to be called again.

export const mutatingWebhookConfigurationKind: KindModule = {
  api: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'] },
  strategy: {
    defaults(o): void {
      for (const w of items(o as Obj, 'webhooks')) {
        defaultWebhook(w);
        setDefault(w, 'reinvocationPolicy', 'Never');
      }
    },
    validate: (o) => validateWebhooks(o.webhooks, true),
  },
  generation: true,
  columns: WEBHOOK_CONFIGURATION_COLUMNS,
};
