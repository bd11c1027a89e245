import type { KubeObject } from '../../shared/k8s.ts';
import { badRequest } from '../../shared/apiErrors.ts';

// Field selectors: `field=value`, `field==value`, `field!=value`, comma AND. Every kind supports
// metadata.name and metadata.namespace; a few kinds add the fields their real strategies index.
// An unsupported field is a 400 like the real server's "field label not supported".

export interface FieldRequirement {
  field: string;
  op: 'eq' | 'neq';
  value: string;
}

export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  readonly empty: boolean;
  matches(obj: Readonly<KubeObject>): boolean;
}

const EXTRA_FIELDS: Record<string, string[]> = {
  Pod: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  Secret: ['type'],
  Namespace: ['status.phase'],
  Node: ['spec.unschedulable'],
  Event: ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'],
  Job: ['status.successful'],
  ReplicaSet: ['status.replicas'],
  ReplicationController: ['status.replicas'],
  CertificateSigningRequest: ['spec.signerName'],
};

/** Field value as the server's field set has it (missing → ''). */
function fieldValue(obj: Readonly<KubeObject>, path: string): string {
  if (path === 'source' && obj.kind === 'Event') {
    // An Event written through events.k8s.io/v1 has no source: its reporting controller stands in.
    const event = obj as { source?: { component?: string }; reportingComponent?: string };
    return event.source?.component || (event.reportingComponent ?? '');
  }
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return '';
  return String(cur);
}

/** Splits on unescaped `sep`, keeping escapes for unescapeValue. */
function splitEscaped(text: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (c === '\\' && i + 1 < text.length) {
      cur += c + (text[i + 1] ?? '');
      i++;
    } else if (c === sep) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/**
 * A value as fields.UnescapeValue reads it: only `\\`, `\,` and `\=` are escapes, and a bare `,`
 * or `=` is refused (both 400s, worded as kube-apiserver words them).
 */
function unescapeValue(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') {
      const next = s[i + 1];
      if (next !== '\\' && next !== ',' && next !== '=') throw badRequest(`invalid field selector: invalid escape sequence: \\${next ?? ''}`);
      out += next;
      i++;
    } else if (c === ',' || c === '=') {
      // Go prints the rune with %v: its code point.
      throw badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  return out;
}

/** A term split at its first operator, as fields.splitTerm does: escapes do not hide an operator. */
function parseRequirement(part: string, text: string): FieldRequirement {
  for (let i = 0; i < part.length; i++) {
    if (part.startsWith('!=', i)) return { field: part.slice(0, i).trim(), op: 'neq', value: unescapeValue(part.slice(i + 2)) };
    if (part.startsWith('==', i)) return { field: part.slice(0, i).trim(), op: 'eq', value: unescapeValue(part.slice(i + 2)) };
    if (part[i] === '=') return { field: part.slice(0, i).trim(), op: 'eq', value: unescapeValue(part.slice(i + 1)) };
  }
  throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
}

/**
 * Parses and checks a field selector for one kind; throws ApiError 400. A custom resource's
 * selectable fields are checked by its own conversion function, as kinds with fields of their own are.
 */
export function parseFieldSelector(text: string | undefined, kind: string, customResource = false): FieldSelector {
  const trimmed = (text ?? '').trim();
  // As fields.ParseSelector: terms in sorted order (which decides the error named first), empty ones skipped.
  const terms = trimmed === '' ? [] : splitEscaped(trimmed, ',').sort().filter((p) => p !== '');
  const requirements = terms.map((p) => parseRequirement(p, trimmed));
  const allowed = EXTRA_FIELDS[kind] ?? [];
  for (const r of requirements) {
    if (r.field !== 'metadata.name' && r.field !== 'metadata.namespace' && !allowed.includes(r.field)) {
      // Kinds with fields of their own check through their conversion function; the others through the generic object fields.
      throw badRequest(customResource || Object.hasOwn(EXTRA_FIELDS, kind) ? `field label not supported: ${r.field}` : `"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`);
    }
  }
  return {
    requirements,
    empty: requirements.length === 0,
    matches: (obj) => requirements.every((r) => (fieldValue(obj, r.field) === r.value) === (r.op === 'eq')),
  };
}
