import { createHash } from 'node:crypto';
import type { KubeObject } from '../../shared/k8s.ts';
import { isObj, type Obj } from './defaulting.ts';
import type { StoredObjects } from './kindStrategy.ts';

// kube-apiserver's ServiceAccount admission plugin on a new Pod: unless the pod (first) or its
// service account says automountServiceAccountToken: false, every container mounts a projected
// `kube-api-access-xxxxx` volume (a bound token, the cluster's CA bundle and the namespace) at
// /var/run/secrets/kubernetes.io/serviceaccount, read-only — except a container that already
// mounts something there.

export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const VOLUME_PREFIX = 'kube-api-access-';
/** utilrand's alphabet (no vowels, no look-alikes). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: an hour and 7 seconds. */
const TOKEN_EXPIRATION_SECONDS = 3607;

function shouldAutomount(spec: Obj, serviceAccount: Readonly<KubeObject> | undefined): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  const fromAccount = (serviceAccount as { automountServiceAccountToken?: unknown } | undefined)?.automountServiceAccountToken;
  return typeof fromAccount === 'boolean' ? fromAccount : true;
}

/**
 * kube-apiserver picks a random five-letter suffix; here it follows from the service account, so
 * that every run of a scenario names the volume alike whatever order its Pods are made in
 * (`controller-lab check` compares runs, and a made-up name is no difference of state).
 */
function volumeName(namespace: string, serviceAccount: string): string {
  const digest = createHash('sha256').update(`${namespace}/${serviceAccount}`).digest();
  return VOLUME_PREFIX + [...digest.subarray(0, 5)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

function tokenVolume(name: string): Obj {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { path: 'token', expirationSeconds: TOKEN_EXPIRATION_SECONDS } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
}

export function mountServiceAccountToken(pod: KubeObject, spec: Obj, stored: StoredObjects): void {
  const namespace = pod.metadata.namespace ?? '';
  const accountName = typeof spec.serviceAccountName === 'string' ? spec.serviceAccountName : 'default';
  const account = [...stored.list('', 'serviceaccounts')].find((sa) => sa.metadata.namespace === namespace && sa.metadata.name === accountName);
  if (!shouldAutomount(spec, account)) return;
  const volumes = Array.isArray(spec.volumes) ? (spec.volumes as unknown[]).filter(isObj) : [];
  const existing = volumes.find((v) => typeof v.name === 'string' && v.name.startsWith(VOLUME_PREFIX));
  const name = typeof existing?.name === 'string' ? existing.name : volumeName(namespace, accountName);
  let needed = false;
  for (const field of ['initContainers', 'containers']) {
    const containers = Array.isArray(spec[field]) ? (spec[field] as unknown[]).filter(isObj) : [];
    for (const c of containers) {
      const mounts = Array.isArray(c.volumeMounts) ? (c.volumeMounts as unknown[]).filter(isObj) : [];
      if (mounts.some((m) => m.mountPath === TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [...mounts, { name, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      needed = true;
    }
  }
  if (needed && !existing) spec.volumes = [...volumes, tokenVolume(name)];
}
