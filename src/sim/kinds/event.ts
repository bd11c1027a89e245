import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { invalid, isRecord, required } from './fieldErrors.ts';
import type { KindStrategy } from './kindStrategy.ts';
import type { KindModule } from './kindModule.ts';
import { EVENT_COLUMNS } from './eventColumns.ts';

// Events (core/v1), as recorders write them: legacyValidateEvent — the involved object's namespace
// must be the Event's own, and an Event with an eventTime (the newer form) names its reporting
// component and instance, action and reason.

const LIMITS: [string, number][] = [['reportingInstance', 128], ['action', 128], ['reason', 128], ['message', 1024]];

export const eventStrategy: KindStrategy = {
  validate(o: Readonly<KubeObject>): Cause[] {
    const involved = isRecord(o.involvedObject) ? o.involvedObject : {};
    const involvedNs = typeof involved.namespace === 'string' ? involved.namespace : '';
    const ns = o.metadata.namespace ?? '';
    const causes: Cause[] = [];
    const mismatch = invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace');
    if (!o.eventTime) {
      if (involvedNs === '' ? ns !== '' && ns !== 'default' : ns !== involvedNs) causes.push(mismatch);
    } else {
      if (involvedNs === '' && ns !== 'default' && ns !== 'kube-system') causes.push(mismatch);
      if (!o.reportingComponent) causes.push(required('reportingComponent'));
      if (!o.reportingInstance) causes.push(required('reportingInstance'));
      if (!o.action) causes.push(required('action'));
      if (!o.reason) causes.push(required('reason'));
      for (const [field, limit] of LIMITS) {
        const v = o[field];
        if (typeof v === 'string' && v.length > limit) causes.push(invalid(field, '', `can have at most ${limit} characters`));
      }
    }
    causes.push(...validateName(ns, 'subdomain', 'namespace'));
    return causes;
  },
};

export const eventKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'events', kind: 'Event', shortNames: ['ev'] },
  strategy: eventStrategy,
  columns: EVENT_COLUMNS,
};
