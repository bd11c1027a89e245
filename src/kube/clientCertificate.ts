import type tls from 'node:tls';
import { KubeconfigError } from './errors.ts';

// A client certificate or key that OpenSSL cannot read throws from inside Node's https agent,
// where no request sees it; checked when the transport is first used, it is a kubeconfig error
// naming the field instead (kubectl: "tls: failed to find any PEM data in certificate input").

export interface ClientCertificate {
  cert?: Buffer;
  key?: Buffer;
  /** How the kubeconfig names each: `client-certificate-data`, or `client-certificate /path/alice.crt`. */
  certField: string;
  keyField: string;
}

/** Throws a KubeconfigError naming the user and field when the certificate or key does not parse, or do not belong together. */
export function checkClientCertificate(tlsModule: typeof tls, userName: string, { cert, key, certField, keyField }: ClientCertificate): void {
  const fails = (options: tls.SecureContextOptions): string | undefined => {
    try {
      tlsModule.createSecureContext(options);
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  };
  const certFailure = cert && fails({ cert });
  if (certFailure) throw new KubeconfigError(`user "${userName}" ${certField} is not a PEM certificate (${certFailure})`);
  const keyFailure = key && fails({ key });
  if (keyFailure) throw new KubeconfigError(`user "${userName}" ${keyField} is not a PEM private key (${keyFailure})`);
  const pairFailure = cert && key && fails({ cert, key });
  if (pairFailure) throw new KubeconfigError(`user "${userName}" ${keyField} is not the key of its ${certField} (${pairFailure})`);
}
