import type { KubeObject } from '../../shared/k8s.ts';
import { invalid, type Cause } from '../../shared/apiErrors.ts';
import { goBytes } from '../vocabulary/goValues.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { STATUS_VERBS, type KindModule } from './kindModule.ts';
import { CERTIFICATE_SIGNING_REQUEST_COLUMNS } from './certificateSigningRequestColumns.ts';
import { conditionChangeCauses, preserveApprovals, stampConditions, type Condition } from './certificateSigningRequestConditions.ts';

// CertificateSigningRequests (certificates.k8s.io/v1), as pkg/registry/certificates and
// pkg/apis/certificates/validation rule them: the requester is recorded on create, the spec never
// changes after it, and the Approved/Denied conditions are written only through /approval. The sim
// signs nothing: no signer controller issues certificates, so status.certificate stays empty unless
// a client writes it through /status.

type Csr = KubeObject & {
  spec?: { request?: unknown; signerName?: unknown; usages?: unknown; expirationSeconds?: unknown; username?: string; groups?: string[]; uid?: string; extra?: unknown };
  status?: { conditions?: Condition[]; certificate?: string };
};

const USAGES = new Set([
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment',
  'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing',
  'email protection', 's/mime', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing',
  'microsoft sgc', 'netscape sgc',
]);
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const LEGACY_SIGNER = 'kubernetes.io/legacy-unknown';
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** certificates.ParseCSR's first check: one PEM block of type CERTIFICATE REQUEST (the signature is not checked here). */
function requestProblem(request: unknown): string | undefined {
  const pem = typeof request === 'string' ? Buffer.from(request, 'base64').toString('latin1') : '';
  const block = /-----BEGIN ([A-Z ]+)-----\r?\n([\s\S]*?)-----END \1-----/.exec(pem);
  if (!block || block[1] !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  return undefined;
}

/** apivalidation.ValidateSignerName: `domain/path`, the domain a DNS subdomain, the path a qualified-name-like segment. */
function signerNameCauses(name: unknown): Cause[] {
  const field = 'spec.signerName';
  if (typeof name !== 'string' || name === '') return [{ reason: 'FieldValueRequired', field, message: 'Required value' }];
  const slash = name.indexOf('/');
  const domain = name.slice(0, slash);
  const path = name.slice(slash + 1);
  if (slash < 0 || !DNS_SUBDOMAIN.test(domain) || !domain.includes('.') || path === '' || path.includes('/')) {
    return [{ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(name)}: must be a fully qualified domain and path of the form 'example.com/signer-name'` }];
  }
  return [];
}

function conditionCauses(conditions: Condition[] | undefined): Cause[] {
  const causes: Cause[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const at = `status.conditions[${i}]`;
    if (typeof c.type !== 'string' || c.type === '') causes.push({ reason: 'FieldValueRequired', field: `${at}.type`, message: 'Required value' });
    else if (seen.has(c.type)) causes.push({ reason: 'FieldValueDuplicate', field: `${at}.type`, message: `Duplicate value: ${JSON.stringify(c.type)}` });
    else seen.add(c.type);
    if (typeof c.status !== 'string' || c.status === '') causes.push({ reason: 'FieldValueRequired', field: `${at}.status`, message: 'Required value' });
    else if (!CONDITION_STATUSES.includes(c.status)) {
      causes.push({ reason: 'FieldValueNotSupported', field: `${at}.status`, message: `Unsupported value: ${JSON.stringify(c.status)}: supported values: ${CONDITION_STATUSES.map((s) => JSON.stringify(s)).join(', ')}` });
    } else if ((c.type === 'Approved' || c.type === 'Denied' || c.type === 'Failed') && c.status !== 'True') {
      causes.push({ reason: 'FieldValueNotSupported', field: `${at}.status`, message: `Unsupported value: ${JSON.stringify(c.status)}: supported values: "True"` });
    }
  });
  if (seen.has('Approved') && seen.has('Denied')) {
    const i = (conditions ?? []).findIndex((c) => c.type === 'Denied');
    causes.push({ reason: 'FieldValueInvalid', field: `status.conditions[${i}].type`, message: 'Invalid value: "Denied": Approved and Denied conditions are mutually exclusive' });
  }
  return causes;
}

function validate(obj: Readonly<Csr>): Cause[] {
  const spec = obj.spec ?? {};
  const causes: Cause[] = [];
  const problem = requestProblem(spec.request);
  if (problem) causes.push({ reason: 'FieldValueInvalid', field: 'spec.request', message: `Invalid value: ${goBytes(spec.request)}: ${problem}` });
  const usages = Array.isArray(spec.usages) ? (spec.usages as unknown[]) : [];
  if (usages.length === 0) causes.push({ reason: 'FieldValueRequired', field: 'spec.usages', message: 'Required value' });
  const seen = new Set<unknown>();
  usages.forEach((u, i) => {
    if (!USAGES.has(u as string)) {
      causes.push({ reason: 'FieldValueNotSupported', field: `spec.usages[${i}]`, message: `Unsupported value: ${JSON.stringify(u)}: supported values: ${[...USAGES].sort().map((s) => JSON.stringify(s)).join(', ')}` });
    } else if (seen.has(u)) causes.push({ reason: 'FieldValueDuplicate', field: `spec.usages[${i}]`, message: `Duplicate value: ${JSON.stringify(u)}` });
    seen.add(u);
  });
  if (spec.signerName === LEGACY_SIGNER) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.signerName', message: `Invalid value: ${JSON.stringify(LEGACY_SIGNER)}: the legacy signerName is not allowed via this API version` });
  } else causes.push(...signerNameCauses(spec.signerName));
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: `Invalid value: ${spec.expirationSeconds}: may not specify a duration less than 600 seconds (10 minutes)` });
  }
  return [...causes, ...conditionCauses(obj.status?.conditions)];
}

export const certificateSigningRequestStrategy: KindStrategy = {
  normalize(obj: KubeObject): void {
    // Who requested it is the server's to say, never the body's.
    const spec = ((obj as Csr).spec ??= {});
    delete spec.username;
    delete spec.uid;
    delete spec.groups;
    delete spec.extra;
  },

  prepareForCreate(obj: KubeObject, _stored, requester): void {
    const spec = ((obj as Csr).spec ??= {});
    spec.username = requester.username;
    if (requester.uid) spec.uid = requester.uid;
    spec.groups = [...requester.groups];
    if (requester.extra && Object.keys(requester.extra).length) spec.extra = structuredClone(requester.extra) as Record<string, string[]>;
  },

  validate: (obj) => validate(obj as Csr),

  prepareForUpdate(before: Readonly<KubeObject>, next: KubeObject): void {
    // Updating the main resource changes metadata only: spec and status stay as stored.
    (next as Csr).spec = structuredClone((before as Csr).spec);
  },

  prepareForStatusUpdate(next: KubeObject, _body: Readonly<KubeObject>, before: Readonly<KubeObject>, now: string): void {
    // /status writes the other conditions and the certificate; Approved and Denied stay as stored.
    const status = ((next as Csr).status ??= {});
    const stored = (before as Csr).status?.conditions ?? [];
    const conditions = stampConditions(preserveApprovals(status.conditions ?? [], stored), stored, now);
    if (conditions.length) status.conditions = conditions;
    else delete status.conditions;
  },

  validateStatusUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
    const old = (before as Csr).status ?? {};
    const causes = [...validate(after as Csr), ...conditionChangeCauses(old.conditions ?? [], (after as Csr).status?.conditions ?? [], false)];
    const certificate = (after as Csr).status?.certificate;
    if (old.certificate && certificate !== old.certificate) {
      causes.push({ reason: 'FieldValueForbidden', field: 'status.certificate', message: 'Forbidden: updates may not modify existing certificate content' });
    }
    return causes;
  },

};

/**
 * PUT/PATCH …/certificatesigningrequests/{name}/approval: status.conditions and metadata change
 * (an approver may annotate what it decided), spec and the rest of status stay as stored; an
 * Approved or Denied condition, once there, cannot be taken away.
 */
export function approveCertificateSigningRequest(current: Readonly<KubeObject>, body: Readonly<KubeObject>, now: string): KubeObject {
  const cur = current as Csr;
  const next = structuredClone(cur) as Csr;
  next.metadata = structuredClone(body.metadata ?? {});
  const given = ((body as Csr).status?.conditions ?? []).filter((c): c is Condition => typeof c === 'object' && c !== null);
  const before = cur.status?.conditions ?? [];
  const conditions = stampConditions(given, before, now);
  next.status = { ...(next.status ?? {}), conditions };
  if (conditions.length === 0) delete next.status.conditions;
  const causes = [...validate(next), ...conditionChangeCauses(before, conditions, true)];
  if (causes.length) throw invalid('certificates.k8s.io', 'CertificateSigningRequest', cur.metadata.name ?? '', causes);
  return next;
}

export const certificateSigningRequestKind: KindModule = {
  api: {
    group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespaced: false, shortNames: ['csr'], status: true,
    more: [{ name: 'approval', kind: 'CertificateSigningRequest', verbs: STATUS_VERBS }],
  },
  strategy: certificateSigningRequestStrategy,
  zeroStatus: () => ({}),
  columns: CERTIFICATE_SIGNING_REQUEST_COLUMNS,
};
