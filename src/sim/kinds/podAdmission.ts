import { createHash } from 'node:crypto';
import type { KubeObject } from '../../shared/k8s.ts';
import { isRecord, records } from './fieldErrors.ts';
import type { Obj } from './defaulting.ts';
import type { StoredObjects } from './kindStrategy.ts';

// What kube-apiserver adds to a new Pod beyond defaults: the ServiceAccount admission plugin's
// projected token volume, mounted in every container (unless automounting is off on the pod or its
// service account), and the QoS class the strategy computes from the containers' resources.

const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
// k8s.io/apimachinery's utilrand alphabet: no vowels, no confusable digits.
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * The volume's `kube-api-access-xxxxx` suffix: random in kube-apiserver; here derived from the
 * service account, so the same pod gets the same volume in every run (what `check` compares).
 */
function suffixOf(serviceAccount: string): string {
  const digest = createHash('sha256').update(serviceAccount).digest();
  return [...digest.subarray(0, 5)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

function tokenVolume(name: string): Obj {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  };
}

export function mountServiceAccountToken(pod: KubeObject, stored: StoredObjects): void {
  const spec = pod.spec as Obj | undefined;
  if (!spec || spec.automountServiceAccountToken === false) return;
  const account = [...stored.list('', 'serviceaccounts')].find((s) => s.metadata.namespace === pod.metadata.namespace && s.metadata.name === spec.serviceAccountName);
  if (account?.['automountServiceAccountToken'] === false && spec.automountServiceAccountToken !== true) return;
  const containers = [...records(spec.initContainers), ...records(spec.containers)];
  // A pod that mounts something at the token's path already brings its own.
  if (containers.some((c) => records(c.volumeMounts).some((m) => m.mountPath === TOKEN_MOUNT_PATH))) return;
  const name = `kube-api-access-${suffixOf(`${pod.metadata.namespace ?? ''}/${String(spec.serviceAccountName ?? '')}`)}`;
  spec.volumes = [...records(spec.volumes), tokenVolume(name)];
  for (const c of containers) c.volumeMounts = [...records(c.volumeMounts), { name, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
}

const QOS_RESOURCES = ['cpu', 'memory'];

/** A quantity above zero (zero requests and limits do not count towards a class). */
function positive(q: unknown): boolean {
  return (typeof q === 'number' && q > 0) || (typeof q === 'string' && /[1-9]/.test(q.replace(/[eE][+-]?\d+$/, '')) && !q.trim().startsWith('-'));
}

/** GetPodQOS: BestEffort without requests or limits; Guaranteed when every container limits cpu and memory at its requests. */
export function qosClassOf(spec: Obj): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  let any = false;
  let guaranteed = true;
  for (const c of [...records(spec.initContainers), ...records(spec.containers)]) {
    const resources = isRecord(c.resources) ? c.resources : {};
    const requests = isRecord(resources.requests) ? resources.requests : {};
    const limits = isRecord(resources.limits) ? resources.limits : {};
    for (const r of QOS_RESOURCES) {
      if (positive(requests[r]) || positive(limits[r])) any = true;
      if (!positive(limits[r]) || (positive(requests[r]) && String(requests[r]) !== String(limits[r]))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
