import type { KubeObject } from '../../shared/k8s.ts';
import { strategyFor } from '../kinds/index.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { timestamp } from '../vocabulary/objectMeta.ts';
import type { DeleteOptions } from './types.ts';

// What a delete writes on an object its finalizers hold, as kube-apiserver's BeforeDelete and
// markAsDeleting write it: a kind with graceful deletion (a Pod) gets the period its strategy
// decides, due that many seconds on; every other kind gets 0, due now, whatever the request asked.

export interface DeletionMark {
  deletionTimestamp: string;
  deletionGracePeriodSeconds: number;
}

export function deletionMark(info: ResourceInfo, obj: Readonly<KubeObject>, requested: number | undefined, now: number): DeletionMark {
  const grace = strategyFor(info).deletionGracePeriod?.(obj, requested) ?? 0;
  return { deletionTimestamp: timestamp(now + grace * 1000), deletionGracePeriodSeconds: grace };
}

/**
 * Whether a graceful deletion is under way (BeforeDelete's gracefulPending): a deleting object
 * with a period left. Its deletion can then only be shortened; its finalizers stay as they are.
 */
export function gracefulDeletionPending(obj: Readonly<KubeObject>): boolean {
  return !!obj.metadata.deletionTimestamp && (obj.metadata.deletionGracePeriodSeconds ?? 0) > 0;
}

/** A second delete of a graceful kind asking a shorter period: the mark it moves to, else undefined. */
export function shortenedDeletion(info: ResourceInfo, obj: Readonly<KubeObject>, requested: number | undefined): DeletionMark | undefined {
  const current = obj.metadata.deletionGracePeriodSeconds ?? 0;
  if (!strategyFor(info).deletionGracePeriod || !gracefulDeletionPending(obj) || requested === undefined || requested >= current) return undefined;
  const due = Date.parse(obj.metadata.deletionTimestamp ?? '') + (requested - current) * 1000;
  return { deletionTimestamp: timestamp(due), deletionGracePeriodSeconds: requested };
}

const GC_FINALIZERS = ['orphan', 'foregroundDeletion'];

/**
 * The finalizers a delete of an object already deleting leaves (deletionFinalizersForGarbageCollection):
 * an explicit propagation policy replaces the garbage collector's finalizer with its own, or none
 * for Background. Undefined when nothing changes. `orphanedAlready`: the sim's own garbage
 * collector has orphaned the dependents within the call, so no `orphan` finalizer is left to wait.
 */
export function finalizersForPolicy(obj: Readonly<KubeObject>, options: DeleteOptions, orphanedAlready = false): string[] | undefined {
  const policy = options.propagationPolicy;
  if (!policy) return undefined;
  const current = obj.metadata.finalizers ?? [];
  const next = current.filter((f) => !GC_FINALIZERS.includes(f));
  if (policy === 'Orphan' && !orphanedAlready) next.push('orphan');
  if (policy === 'Foreground') next.push('foregroundDeletion');
  const same = next.length === current.length && next.every((f) => current.includes(f));
  return same ? undefined : next;
}
