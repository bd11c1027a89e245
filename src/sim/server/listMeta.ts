import type { ListResult } from '../store/types.ts';

/** A list answer's `metadata`: its resourceVersion, and the continue token and remaining count of a page. */
export function listMetaOf(list: ListResult): { resourceVersion: string; continue?: string; remainingItemCount?: number } {
  const meta: { resourceVersion: string; continue?: string; remainingItemCount?: number } = { resourceVersion: String(list.resourceVersion) };
  if (list.continue) meta.continue = list.continue;
  if (list.remainingItemCount !== undefined) meta.remainingItemCount = list.remainingItemCount;
  return meta;
}
