import type { KubeObject, ObjectMeta } from '../../shared/k8s.ts';

// What no update changes, whatever its body says (rest.BeforeUpdate in kube-apiserver): the
// object's identity, its creation time and generation (the store moves it), and a deletion once
// it started. Main-resource, /status and a kind's own subresource writes alike.

const KEPT = ['name', 'namespace', 'uid', 'creationTimestamp', 'generation', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const;

/** Puts the stored object's identity, creation, generation and deletion back into `next` (absent where the stored one has none). */
export function keepImmutableMetadata(stored: Readonly<KubeObject>, next: KubeObject): void {
  const m = next.metadata as Record<keyof ObjectMeta, unknown>;
  for (const field of KEPT) {
    const value = stored.metadata[field];
    if (value === undefined) delete m[field];
    else m[field] = value;
  }
}
