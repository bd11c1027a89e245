import { items, obj, setDefault, type Obj } from './defaulting.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { validateNetworkPolicy } from './networkPolicyValidation.ts';
import { AGE_COLUMN, col, field, labelSelectorText, NAME_COLUMN } from '../vocabulary/tableCells.ts';

// NetworkPolicies (networking.k8s.io/v1). Their status (alpha) was removed before v1.28: no subresource.

export const networkPolicyStrategy: KindStrategy = {
  /** SetDefaults_NetworkPolicy[Port]. */
  defaults(o): void {
    const spec = obj(o as Obj, 'spec');
    const policyTypes = spec.policyTypes;
    if (!Array.isArray(policyTypes) || policyTypes.length === 0) {
      // A policy always isolates ingress; egress only when it says something about egress.
      spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
    }
    for (const rule of [...items(spec, 'ingress'), ...items(spec, 'egress')]) {
      for (const port of items(rule, 'ports')) setDefault(port, 'protocol', 'TCP');
    }
  },
  validate: validateNetworkPolicy,
};

export const networkPolicyKind: KindModule = {
  api: { group: 'networking.k8s.io', version: 'v1', resource: 'networkpolicies', kind: 'NetworkPolicy', shortNames: ['netpol'] },
  strategy: networkPolicyStrategy,
  generation: true,
  columns: [NAME_COLUMN, col('Pod-Selector', (o) => labelSelectorText(field(o, 'spec.podSelector'))), AGE_COLUMN],
};
