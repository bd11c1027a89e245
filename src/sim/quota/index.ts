// Resource quota: what objects use of a quota (evaluators), what the quota controller writes into
// a quota's status, and the admission check of a write against the namespace's quotas.

export { calculateUsed, type ObjectsOf } from './quotaUsage.ts';
export { checkQuotas, QuotaRefusal, type QuotaCharge, type QuotaRequest } from './quotaAdmission.ts';
export type { QuotaOperation } from './evaluators.ts';
export { toJson, type ResourceList } from '../vocabulary/resourceList.ts';
