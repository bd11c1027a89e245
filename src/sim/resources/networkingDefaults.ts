import { items, obj, setDefault, type Obj } from './defaulting.ts';

// NetworkPolicy defaults (networking/v1 SetDefaults_NetworkPolicy[Port]). Ingresses have none in v1.

export function networkPolicyDefaults(o: Obj): void {
  const spec = obj(o, 'spec');
  const policyTypes = spec.policyTypes;
  if (!Array.isArray(policyTypes) || policyTypes.length === 0) {
    // A policy always isolates ingress; egress only when it says something about egress.
    spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
  for (const rule of [...items(spec, 'ingress'), ...items(spec, 'egress')]) {
    for (const port of items(rule, 'ports')) setDefault(port, 'protocol', 'TCP');
  }
}
