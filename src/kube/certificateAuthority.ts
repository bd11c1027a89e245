import { KubeconfigError } from './errors.ts';

// A certificate-authority that holds no PEM certificate is what client-go refuses before it
// connects ("unable to load root certificates: unable to parse bytes as PEM block"). Node takes it
// and only the handshake fails, where it reads as a server certificate from another CA.

/** Throws a KubeconfigError naming the cluster and field when `ca` holds no PEM certificate. */
export function checkCertificateAuthority(clusterName: string, field: string, ca: Buffer | undefined): void {
  if (!ca || ca.toString('latin1').includes('-----BEGIN CERTIFICATE-----')) return;
  throw new KubeconfigError(`cluster "${clusterName}" ${field} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
}
