import type { KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from './types.ts';

// kube-apiserver drops an owner reference written twice (the whole reference alike, so two
// references with one uid but different names both stay) and says so in a warning naming the
// uid of each one dropped. The words differ for a patch, whose result it dedups only after
// admission.

const DEDUPED = 'API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed:';

const sameReference = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function dedupOwnerReferences(obj: KubeObject, ctx: RequestContext, patched: boolean): void {
  const refs = obj.metadata?.ownerReferences;
  if (!Array.isArray(refs) || refs.length < 2) return;
  const kept: typeof refs = [];
  const duplicates: string[] = [];
  for (const ref of refs) {
    if (kept.some((k) => k?.uid === ref?.uid && sameReference(k, ref))) duplicates.push(String(ref?.uid ?? ''));
    else kept.push(ref);
  }
  if (!duplicates.length) return;
  obj.metadata.ownerReferences = kept;
  const where = patched ? 'contains duplicate entries after mutating admission happens' : 'contains duplicate entries';
  ctx.warnings?.push(`.metadata.ownerReferences ${where}; ${DEDUPED} ${duplicates.join(', ')}`);
}
