import { generate } from 'selfsigned';

// A throwaway CA with a server certificate and a client certificate it signed, for TLS tests.

export interface TestPki {
  ca: string;
  /** Server certificate valid for `serverAltName` (IP 127.0.0.1 by default). */
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

export async function makePki(serverAltName: { ip: string } | { dns: string } = { ip: '127.0.0.1' }): Promise<TestPki> {
  const ca = await generate([{ name: 'commonName', value: 'controller-lab-test-ca' }], {
    keyType: 'ec', algorithm: 'sha256',
    extensions: [{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true }],
  });
  const signer = { key: ca.private, cert: ca.cert };
  const altName = 'ip' in serverAltName ? { type: 7 as const, ip: serverAltName.ip } : { type: 2 as const, value: serverAltName.dns };
  const server = await generate([{ name: 'commonName', value: 'kube-apiserver' }], {
    keyType: 'ec', algorithm: 'sha256',
    ca: signer,
    extensions: [{ name: 'subjectAltName', altNames: [altName] }, { name: 'extKeyUsage', serverAuth: true }],
  });
  const client = await generate([{ name: 'commonName', value: 'alice' }], { keyType: 'ec', algorithm: 'sha256', ca: signer, extensions: [{ name: 'extKeyUsage', clientAuth: true }] });
  return { ca: ca.cert, serverCert: server.cert, serverKey: server.private, clientCert: client.cert, clientKey: client.private };
}

export const b64 = (pem: string): string => Buffer.from(pem).toString('base64');
