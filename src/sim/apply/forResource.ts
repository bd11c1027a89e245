import { apiVersionOf, type KubeObject } from '../../shared/k8s.ts';
import { hasSubresource, type ResourceInfo } from '../vocabulary/resourceInfo.ts';
import type { FieldManagement } from './fieldManager.ts';
import { FieldSet } from './fieldSet.ts';
import { fieldElement } from './pathElement.ts';
import { builtinShape } from './openApiShape.ts';
import { SchemaShape, type Shape } from './shape.ts';

// What field management needs to know about one write: who the manager is, which apiVersion and
// subresource it wrote through, the shapes of the kind's fields, and which fields it may own.

export interface WriterIdentity {
  /** ?fieldManager=… */
  fieldManager?: string | undefined;
  /** The request's User-Agent: without a fieldManager, its part before the first `/` names the manager. */
  userAgent?: string | undefined;
}

/** As the API server derives a manager from a User-Agent: printable characters before the first `/`, at most 128 bytes. */
export function managerFromUserAgent(userAgent: string): string {
  let out = '';
  for (const ch of userAgent.split('/')[0] ?? '') {
    if (!/\p{L}|\p{M}|\p{N}|\p{P}|\p{S}| /u.test(ch)) continue;
    if (Buffer.byteLength(out + ch) > 128) break;
    out += ch;
  }
  // A request without a User-Agent is managed by "unknown", as the API server records it.
  return out === '' ? 'unknown' : out;
}

const STATUS = fieldElement('status');

function onlyStatus(set: FieldSet): FieldSet {
  const out = new FieldSet();
  const status = set.children.get(STATUS);
  if (status) out.children.set(STATUS, status);
  return out;
}

function without(field: string): (set: FieldSet) => FieldSet {
  return (set) => {
    if (!set.children.has(field)) return set;
    const out = new FieldSet();
    out.member = set.member;
    for (const [e, c] of set.children) if (e !== field) out.children.set(e, c);
    return out;
  };
}

const withoutStatus = without(STATUS);
const withoutSpec = without(fieldElement('spec'));

/** A custom resource's schema for one version, from its CRD. */
export function crdSchema(crd: Readonly<KubeObject> | undefined, version: string): Record<string, unknown> | undefined {
  const versions = (crd?.spec as { versions?: { name?: string; schema?: { openAPIV3Schema?: Record<string, unknown> } }[] } | undefined)?.versions;
  return versions?.find((v) => v.name === version)?.schema?.openAPIV3Schema;
}

export function fieldManagementFor(
  info: ResourceInfo,
  subresource: string | undefined,
  writer: WriterIdentity,
  now: string,
  crd: () => Readonly<KubeObject> | undefined,
): FieldManagement {
  const shape: Shape = info.source === 'crd' ? new SchemaShape(crdSchema(crd(), info.version), true) : builtinShape(info.group, info.storageVersion, info.kind, info.resource);
  const statusIsSeparate = hasSubresource(info, 'status');
  // What each write's strategy resets is not owned: a /status write's spec (and for a built-in kind
  // the rest beside status), a main write's status.
  const ownable = subresource === 'status' ? (info.source === 'crd' ? withoutSpec : onlyStatus) : statusIsSeparate && !subresource ? withoutStatus : (s: FieldSet): FieldSet => s;
  const fm: FieldManagement = {
    manager: writer.fieldManager ?? managerFromUserAgent(writer.userAgent ?? ''),
    apiVersion: apiVersionOf(info),
    now,
    shape,
    ownable,
  };
  if (subresource) fm.subresource = subresource;
  return fm;
}
