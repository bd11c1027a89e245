import { isObj, items, obj, setDefault, type Obj } from './defaulting.ts';
import { AGE_COLUMN, col, list, NAME_COLUMN, type TableColumn } from '../vocabulary/tableCells.ts';

// What validating and mutating webhook configurations (admissionregistration.k8s.io/v1) share:
// the defaults of each webhook (SetDefaults_{Validating,Mutating}Webhook, SetDefaults_Rule,
// SetDefaults_ServiceReference) and the `kubectl get` columns (how many webhooks each holds).

export function defaultWebhook(w: Obj): void {
  setDefault(w, 'failurePolicy', 'Fail');
  setDefault(w, 'matchPolicy', 'Equivalent');
  setDefault(w, 'namespaceSelector', {});
  setDefault(w, 'objectSelector', {});
  setDefault(w, 'timeoutSeconds', 10);
  for (const rule of items(w, 'rules')) setDefault(rule, 'scope', '*');
  const clientConfig = w.clientConfig;
  if (isObj(clientConfig) && isObj(clientConfig.service)) setDefault(obj(clientConfig, 'service'), 'port', 443);
}

export const WEBHOOK_CONFIGURATION_COLUMNS: TableColumn[] = [
  NAME_COLUMN,
  col('Webhooks', (o) => list(o, 'webhooks').length, 'integer', 0, 'Webhooks indicates the number of webhooks in the configuration'),
  AGE_COLUMN,
];
