// `kubectl get` columns for webhook configurations (printValidatingWebhook, printMutatingWebhook):
// how many webhooks each holds. The sim stores them but calls none.
import { AGE_COLUMN, col, list, NAME_COLUMN, type TableColumn } from './tableCells.ts';

const WEBHOOK_CONFIGURATION_COLUMNS: TableColumn[] = [
  NAME_COLUMN,
  col('Webhooks', (o) => list(o, 'webhooks').length, 'integer', 0, 'Webhooks indicates the number of webhooks in the configuration'),
  AGE_COLUMN,
];

export const ADMISSION_COLUMNS: Record<string, TableColumn[]> = {
  validatingwebhookconfigurations: WEBHOOK_CONFIGURATION_COLUMNS,
  mutatingwebhookconfigurations: WEBHOOK_CONFIGURATION_COLUMNS,
};
