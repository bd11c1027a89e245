import type { InProcessCluster } from '../simObjects.ts';
import type { AdmitWrite } from '../scenario/scenarioWrites.ts';
import { admittedWrite, webhooksMayAdmit, type AdmittedWrite } from './admittedWrite.ts';

// A scenario's writes through the cluster's admission webhooks, as a client's are (scenarioWrites.ts).

export function scenarioAdmission(cluster: InProcessCluster): AdmitWrite {
  return (target, ctx, write) => {
    const w: AdmittedWrite = { cluster, info: target.info, namespace: target.namespace, name: target.name, subresource: target.subresource ?? '', verb: target.verb, ctx: { ...ctx } };
    if (target.deleteOptions) w.deleteOptions = target.deleteOptions;
    if (!webhooksMayAdmit(w)) return write(w.ctx);
    return admittedWrite(w, write);
  };
}
