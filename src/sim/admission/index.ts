// Admission webhooks: the cluster calls the webhooks its Mutating/ValidatingWebhookConfigurations
// declare on every write they match, as kube-apiserver does (admittedWrite.ts has the passes).

export { admittedWrite, type AdmittedWrite, type WriteVerb } from './admittedWrite.ts';
export { scenarioAdmission } from './scenarioAdmission.ts';
