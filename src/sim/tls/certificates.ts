// The simulated cluster's own PKI: one CA (kept in the state dir so a kubeconfig written earlier stays
// valid across restarts) and a serving certificate for 127.0.0.1 / localhost signed by it. EC P-256
// keys: generation and TLS handshakes are far cheaper than RSA, and every client we target accepts them.
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { missingWhile } from './keptFiles.ts';
import { writePrivateFile } from './kubeconfig.ts';

export interface KeyPairPem {
  certPem: string;
  keyPem: string;
}

export interface ServingPki {
  ca: KeyPairPem;
  serving: KeyPairPem;
  /** Why a kept CA was replaced (its loss accepted), for the start to say; undefined when none was. */
  loss?: string;
}

const DAY_MS = 24 * 3600 * 1000;
const CA_FILE = 'ca.crt';
const CA_KEY_FILE = 'ca.key';

export async function generateCa(now = new Date()): Promise<KeyPairPem> {
  const pems = await generate([{ name: 'commonName', value: 'controller-lab-sim-ca' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - DAY_MS),
    notAfterDate: new Date(now.getTime() + 3650 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { certPem: pems.cert, keyPem: pems.private };
}

/** A leaf for the loopback addresses only: the sim never listens anywhere else. */
export async function generateServingCert(ca: KeyPairPem, now = new Date()): Promise<KeyPairPem> {
  const pems = await generate([{ name: 'commonName', value: 'controller-lab-sim' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - DAY_MS),
    notAfterDate: new Date(now.getTime() + 365 * DAY_MS),
    ca: { key: ca.keyPem, cert: ca.certPem },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { certPem: pems.cert, keyPem: pems.private };
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function stillValid(certPem: string, now: Date): boolean {
  try {
    return new Date(new X509Certificate(certPem).validTo).getTime() > now.getTime() + DAY_MS;
  } catch {
    return false;
  }
}

/**
 * What is wrong with a kept CA (one line naming the file), or undefined. Replacing it would leave
 * every kubeconfig written before untrusted: that is a loss to accept, not to make silently.
 */
function caProblem(dir: string, certPem: string | undefined, keyPem: string | undefined): string | undefined {
  const certFile = join(dir, CA_FILE);
  const keyFile = join(dir, CA_KEY_FILE);
  const lost = 'the kubeconfigs written before would no longer trust the sim';
  if (certPem === undefined) return `${certFile}: missing while ${keyFile} is there: ${lost}`;
  if (keyPem === undefined) return `${keyFile}: missing while ${certFile} is there: ${lost}`;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    return `${certFile}: not a PEM certificate, damaged: ${lost}`;
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    return `${keyFile}: not a PEM private key, damaged: ${lost}`;
  }
  if (!cert.checkPrivateKey(key)) return `${keyFile}: not the key of ${certFile}: ${lost}`;
  return undefined;
}

/** No CA at all where `madeBefore` (the kept token, made before the CA) says one was made: deleted. */
async function bothMissing(dir: string, madeBefore: readonly string[]): Promise<string | undefined> {
  const missing = await missingWhile(`${join(dir, CA_FILE)} and ${join(dir, CA_KEY_FILE)}`, madeBefore);
  return missing && `${missing}: the kubeconfigs written before would no longer trust the sim`;
}

/**
 * The CA from `stateDir` when one is there and still valid, else a new one (saved there when a
 * state dir is given); the serving cert is minted fresh each start (cheap, never stale). A kept CA
 * that is damaged or half there stops the start (its line ends with `refusalEnd`: how to go on),
 * unless `acceptLoss`: then it is replaced and `loss` says what was lost. So does none at all when
 * one of `madeBefore` is there.
 */
export async function loadOrCreatePki(stateDir?: string, now = new Date(), acceptLoss = false, refusalEnd = '', madeBefore: readonly string[] = []): Promise<ServingPki> {
  let ca: KeyPairPem | undefined;
  let problem: string | undefined;
  if (stateDir) {
    const certPem = await readIfPresent(join(stateDir, CA_FILE));
    const keyPem = await readIfPresent(join(stateDir, CA_KEY_FILE));
    problem = certPem === undefined && keyPem === undefined ? await bothMissing(stateDir, madeBefore) : caProblem(stateDir, certPem, keyPem);
    if (problem && !acceptLoss) throw new Error(`${problem}${refusalEnd}`);
    if (!problem && certPem && keyPem && stillValid(certPem, now)) {
      ca = { certPem, keyPem };
      // Nothing in a state dir is for other users, whatever mode a file came with.
      await chmod(join(stateDir, CA_FILE), 0o600);
      await chmod(join(stateDir, CA_KEY_FILE), 0o600);
    }
  }
  if (!ca) {
    ca = await generateCa(now);
    if (stateDir) {
      await mkdir(stateDir, { recursive: true });
      // The certificate is public, but nothing in a state dir is for other users: owner-only too.
      await writePrivateFile(join(stateDir, CA_FILE), ca.certPem);
      await writePrivateFile(join(stateDir, CA_KEY_FILE), ca.keyPem);
    }
  }
  return { ca, serving: await generateServingCert(ca, now), ...(problem ? { loss: problem } : {}) };
}
