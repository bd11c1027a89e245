import type { KubeObject } from '../../shared/k8s.ts';
import type { FieldSet } from './fieldSet.ts';
import { compare, fieldSetOf } from './fieldWalk.ts';
import type { Shape } from './shape.ts';

// `kubectl apply --server-side` over objects that `kubectl apply` (client-side) made, as
// kube-apiserver's field manager eases that move: the fields kubectl last applied client-side, and
// that still hold those values, may be taken over by the manager `kubectl` without a conflict; and
// while the object keeps a last-applied annotation, an apply by `kubectl` rewrites it to the
// applied configuration, so a later client-side apply or `kubectl diff` starts from there.

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Only kubectl's own server-side apply gets this; other appliers opt out by their name. */
export const KUBECTL_MANAGER = 'kubectl';

/** All annotations together, keys and values (ValidateAnnotationsSize). */
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

function lastAppliedOf(obj: Readonly<KubeObject>): string | undefined {
  const value = obj.metadata?.annotations?.[LAST_APPLIED];
  return value ? value : undefined;
}

/**
 * The fields a conflict may be overlooked on: those of the live object's last-applied
 * configuration whose values the live object still has. Undefined when there is no usable
 * annotation (missing, not JSON, or of another apiVersion than the request's).
 */
export function fieldsLastAppliedClientSide(live: Readonly<KubeObject>, apiVersion: string, shape: Shape): FieldSet | undefined {
  const text = lastAppliedOf(live);
  if (!text) return undefined;
  let applied: unknown;
  try {
    applied = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof applied !== 'object' || applied === null || Array.isArray(applied)) return undefined;
  if ((applied as { apiVersion?: unknown }).apiVersion !== apiVersion) return undefined;
  try {
    const diff = compare(applied, live, shape);
    return fieldSetOf(applied, shape).difference(diff.modified).difference(diff.added).difference(diff.removed);
  } catch {
    return undefined;
  }
}

/** JSON as Go's encoding/json writes a map: keys sorted, `<`, `>` and `&` escaped, a newline after. */
function goJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
  };
  const escaped = JSON.stringify(sorted(value))
    .replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `${escaped}\n`;
}

function annotationsBytes(annotations: Record<string, string>): number {
  let n = 0;
  for (const [k, v] of Object.entries(annotations)) n += Buffer.byteLength(k) + Buffer.byteLength(v);
  return n;
}

/** After an apply by `kubectl`: the annotation, where the result has one, says what was applied. */
export function refreshLastApplied(result: KubeObject, config: Readonly<KubeObject>): void {
  const annotations = result.metadata.annotations;
  if (!annotations || !lastAppliedOf(result)) return;
  let applied: unknown = config;
  if (config.metadata?.annotations) {
    const { [LAST_APPLIED]: _dropped, ...rest } = config.metadata.annotations;
    applied = { ...config, metadata: { ...config.metadata, annotations: rest } };
  }
  const next: Record<string, string> = { ...annotations, [LAST_APPLIED]: goJson(applied) };
  // Too large to keep, the annotation goes rather than failing the apply.
  if (annotationsBytes(next) > MAX_ANNOTATIONS_BYTES) delete next[LAST_APPLIED];
  result.metadata.annotations = next;
}
