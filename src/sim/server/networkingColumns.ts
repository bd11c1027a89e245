// `kubectl get` columns for Ingress, IngressClass and NetworkPolicy (printIngress,
// printIngressClass, printNetworkPolicy).
import { AGE_COLUMN, col, field, labelSelectorText, list, NAME_COLUMN, str, type Obj, type TableColumn } from './tableCells.ts';

/** formatHosts: the rules' hosts, at most four and then how many rules are left; `*` when none names one. */
function hosts(o: Obj): string {
  const rules = list(o, 'spec.rules');
  const shown: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (shown.length === 4) more = true;
    if (!more && typeof rule['host'] === 'string' && rule['host'] !== '') shown.push(rule['host']);
  }
  if (shown.length === 0) return '*';
  return more ? `${shown.join(',')} + ${rules.length - 4} more...` : shown.join(',');
}

/**
 * The load balancer's IPs (else hostnames), sorted and de-duplicated. Server-side tables are
 * printed wide, so the address is not clipped to 16 characters as kubectl's own printer would.
 */
function address(o: Obj): string {
  const found = new Set<string>();
  for (const i of list(o, 'status.loadBalancer.ingress')) {
    if (typeof i['ip'] === 'string' && i['ip'] !== '') found.add(i['ip']);
    else if (typeof i['hostname'] === 'string' && i['hostname'] !== '') found.add(i['hostname']);
  }
  return [...found].sort().join(',');
}

/** The parameters reference as `Kind.apiGroup/name`, `<none>` without one. */
function parameters(o: Obj): string {
  const ref = field(o, 'spec.parameters');
  if (typeof ref !== 'object' || ref === null) return '<none>';
  const group = str(ref, 'apiGroup');
  return `${str(ref, 'kind')}${field(ref, 'apiGroup') === undefined ? '' : `.${group}`}/${str(ref, 'name')}`;
}

export const NETWORKING_COLUMNS: Record<string, TableColumn[]> = {
  ingresses: [
    NAME_COLUMN,
    col('Class', (o) => str(o, 'spec.ingressClassName', '<none>'), 'string', 0, 'The name of the IngressClass resource that should be used for this ingress.'),
    col('Hosts', hosts, 'string', 0, 'Hosts that incoming requests are matched against before the ingress rule'),
    col('Address', address, 'string', 0, 'Address is a list containing ingress points for the load-balancer'),
    col('Ports', (o) => (list(o, 'spec.tls').length > 0 ? '80, 443' : '80'), 'string', 0, 'Ports of TLS configurations that open'),
    AGE_COLUMN,
  ],
  ingressclasses: [
    NAME_COLUMN,
    col('Controller', (o) => str(o, 'spec.controller'), 'string', 0, 'Controller that is responsible for handling this class'),
    col('Parameters', parameters, 'string', 0, 'A reference to a resource with additional parameters'),
    AGE_COLUMN,
  ],
  networkpolicies: [NAME_COLUMN, col('Pod-Selector', (o) => labelSelectorText(field(o, 'spec.podSelector'))), AGE_COLUMN],
};
