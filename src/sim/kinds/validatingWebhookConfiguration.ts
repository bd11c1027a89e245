import { items, type Obj } from './defaulting.ts';
import type { KindModule } from './kindModule.ts';
import { defaultWebhook, WEBHOOK_CONFIGURATION_COLUMNS } from './webhookConfiguration.ts';
import { validateWebhooks } from './webhookValidation.ts';

// ValidatingWebhookConfigurations (admissionregistration.k8s.io/v1), stored as the API server
// stores them (defaults filled) for the admission chain to read.

export const validatingWebhookConfigurationKind: KindModule = {
  api: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'] },
  strategy: {
    defaults(o): void {
      for (const w of items(o as Obj, 'webhooks')) defaultWebhook(w);
    },
    validate: (o) => validateWebhooks(o.webhooks, false),
  },
  generation: true,
  columns: WEBHOOK_CONFIGURATION_COLUMNS,
};
