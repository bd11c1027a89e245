import type { KindModule } from './kindModule.ts';
import { CREATE_ONLY } from './kindModule.ts';
import { AGE_COLUMN, col, list, NAME_COLUMN } from '../vocabulary/tableCells.ts';

// ServiceAccounts (core v1), with the token subresource (src/sim/server/serviceAccountTokens.ts).

export const serviceAccountKind: KindModule = {
  api: {
    group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', shortNames: ['sa'],
    more: [{ name: 'token', kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: CREATE_ONLY }],
  },
  columns: [NAME_COLUMN, col('Secrets', (o) => list(o, 'secrets').length, 'string', 0, 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.'), AGE_COLUMN],
};
