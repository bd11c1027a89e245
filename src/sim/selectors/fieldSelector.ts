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

/** Splits on unescaped `sep`, unescaping `\\`, `\,`, `\=`, `\!`. */
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

function unescape(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

function parseRequirement(part: string, text: string): FieldRequirement {
  // Find the operator outside escapes: `!=`, `==`, `=`.
  for (let i = 0; i < part.length; i++) {
    const c = part[i];
    if (c === '\\') { i++; continue; }
    if (c === '!' && part[i + 1] === '=') return { field: part.slice(0, i).trim(), op: 'neq', value: unescape(part.slice(i + 2)) };
    if (c === '=') {
      const skip = part[i + 1] === '=' ? 2 : 1;
      return { field: part.slice(0, i).trim(), op: 'eq', value: unescape(part.slice(i + skip)) };
    }
  }
  throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
}

/**
 * Parses and checks a field selector for one kind; throws ApiError 400. A custom resource's
 * selectable fields are checked by its own conversion function, as kinds with fields of their own are.
 */
export function parseFieldSelector(text: string | undefined, kind: string, customResource = false): FieldSelector {
  const trimmed = (text ?? '').trim();
  const requirements = trimmed === '' ? [] : splitEscaped(trimmed, ',').map((p) => parseRequirement(p, trimmed));
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
