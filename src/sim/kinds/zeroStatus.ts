import { kindModuleFor } from './index.ts';

// The status a built-in kind has before any controller wrote one. kube-apiserver is written in Go:
// its Status fields are structs, not pointers, so a new Deployment is answered with `status: {}`
// and a new Node with its empty nodeInfo, and the fields without `omitempty` are always there
// (a DaemonSet's counts as 0). Clients that compare what they created with what they read back
// (controller-runtime's unstructured Get) see the difference.

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fills what Go would print into `status` (kept as given where set); undefined for kinds without a struct status. */
export function withZeroStatus(info: { group: string; resource: string; source?: string }, status: unknown): Json | undefined {
  const zero = kindModuleFor(info)?.zeroStatus;
  if (!zero) return isObject(status) ? status : undefined;
  const out: Json = isObject(status) ? { ...status } : {};
  for (const [k, v] of Object.entries(zero())) {
    if (out[k] === undefined || out[k] === null) out[k] = v;
    else if (isObject(v) && isObject(out[k])) out[k] = { ...v, ...out[k] };
  }
  return out;
}

/** Whether this kind's status is a Go struct the server always prints. */
export function hasZeroStatus(info: { group: string; resource: string; source?: string }): boolean {
  return kindModuleFor(info)?.zeroStatus !== undefined;
}
