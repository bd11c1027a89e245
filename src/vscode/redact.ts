import type { KubeObject } from '../shared/k8s.ts';

// Secret values never reach a document, a diff or the timeline unless the user asked for them
// (setting controllerLab.showSecretValues). Keys stay visible: they say what the Secret holds.

export function isSecret(obj: Pick<KubeObject, 'kind' | 'apiVersion'>): boolean {
  return obj.kind === 'Secret' && (obj.apiVersion === undefined || obj.apiVersion === 'v1');
}

function base64Bytes(value: string): number {
  const clean = value.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function redactValues(values: unknown, bytesOf: (value: string) => number): unknown {
  if (typeof values !== 'object' || values === null) return values;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    out[key] = `<redacted: ${typeof value === 'string' ? bytesOf(value) : 0} bytes>`;
  }
  return out;
}

/** A copy of `obj` with Secret data/stringData values replaced; other objects are returned as they are. */
export function redactSecret<T extends KubeObject>(obj: T, showSecretValues: boolean): T {
  if (showSecretValues || !isSecret(obj)) return obj;
  const copy: KubeObject = { ...obj };
  if ('data' in obj) copy['data'] = redactValues(obj['data'], base64Bytes);
  if ('stringData' in obj) copy['stringData'] = redactValues(obj['stringData'], (v) => Buffer.byteLength(v, 'utf8'));
  // kubectl apply keeps the whole object, values included, in this annotation.
  const annotations = obj.metadata.annotations;
  const applied = annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
  if (applied !== undefined) {
    copy.metadata = {
      ...obj.metadata,
      annotations: { ...annotations, 'kubectl.kubernetes.io/last-applied-configuration': `<redacted: ${Buffer.byteLength(applied, 'utf8')} bytes>` },
    };
  }
  return copy as T;
}
