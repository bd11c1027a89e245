// `kubectl get csr` columns (printCertificateSigningRequest, v1.28): the condition is the approval
// decision (Denied wins over Approved, else Pending), then Failed and Issued when they apply.
import { AGE_COLUMN, col, field, humanDuration, list, NAME_COLUMN, str, type Obj, type TableColumn } from '../vocabulary/tableCells.ts';

function condition(o: Obj): string {
  const types = new Set(list(o, 'status.conditions').map((c) => c['type']));
  let text = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) text += ',Failed';
  if (str(o, 'status.certificate') !== '') text += ',Issued';
  return text;
}

function requestedDuration(o: Obj): string {
  const seconds = field(o, 'spec.expirationSeconds');
  return typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>';
}

export const CERTIFICATE_SIGNING_REQUEST_COLUMNS: TableColumn[] = [
  NAME_COLUMN,
  AGE_COLUMN,
  col('SignerName', (o) => str(o, 'spec.signerName') || '<none>', 'string', 0, 'Requested signer for the request. It is a qualified name in the form: `scope-hostname.io/name`. If empty, it will be defaulted:\n 1. If it\'s a kubelet client certificate, it is assigned\n    "kubernetes.io/kube-apiserver-client-kubelet".\n 2. If it\'s a kubelet serving certificate, it is assigned\n    "kubernetes.io/kubelet-serving".\n 3. Otherwise, it is assigned "kubernetes.io/legacy-unknown".\nDistribution of trust for signers happens out of band. You can select on this field using `spec.signerName`.'),
  col('Requestor', (o) => str(o, 'spec.username'), 'string', 0, 'Base64-encoded PKCS#10 CSR data'),
  col('RequestedDuration', requestedDuration, 'string', 0, 'expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and and notAfter fields in the issued certificate to determine the actual duration.\n\nThe v1.22+ in-tree implementations of the well-known Kubernetes signers will honor this field as long as the requested duration is not greater than the maximum duration they will honor per the --cluster-signing-duration CLI flag to the Kubernetes controller manager.\n\nCertificate signers may not honor this field for various reasons:\n\n  1. Old signer that is unaware of the field (such as the in-tree\n     implementations prior to v1.22)\n  2. Signer whose configured maximum is shorter than the requested duration\n  3. Signer whose configured minimum is longer than the requested duration\n\nThe minimum valid value for expirationSeconds is 600, i.e. 10 minutes.'),
  col('Condition', condition, 'string', 0, 'Conditions applied to the request, such as approval or denial.'),
];
