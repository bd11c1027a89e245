import type { Cause } from '../../shared/apiErrors.ts';
import type { ObjectMeta } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { validateLabelsAndAnnotations, validateQualifiedName } from '../vocabulary/metadataValidation.ts';
import { invalid, isRecord, nonNegative } from './fieldErrors.ts';

// The rest of ValidateObjectMeta, after the name, labels and annotations: a generation that is
// not negative, owner references that name their owner fully, finalizers that are qualified
// names. Built-in kinds also refuse a bare finalizer name that is not one of Kubernetes' own
// (core's validation); custom resources and CRDs accept it (apimachinery's alone: the
// apiextensions-apiserver's own finalizer is customresourcecleanup.apiextensions.k8s.io).

const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);
/** Kinds that may never own anything (an Event is deleted on its own schedule). */
const BANNED_OWNERS = new Set(['v1/Event']);

/** schema.ParseGroupVersion's version: `v1`, `apps/v1`; empty for more than one slash. */
function versionOf(apiVersion: string): string {
  const parts = apiVersion.split('/');
  if (parts.length > 2) return '';
  return parts.at(-1) ?? '';
}

/** An owner reference as Go's %#v prints it (its pointers printed only when nil, their addresses differ per server). */
function goOwnerReference(ref: Record<string, unknown>): string {
  const s = (v: unknown): string => JSON.stringify(typeof v === 'string' ? v : '');
  const p = (v: unknown): string => (typeof v === 'boolean' ? `(*bool)(${v})` : '(*bool)(nil)');
  return `v1.OwnerReference{APIVersion:${s(ref.apiVersion)}, Kind:${s(ref.kind)}, Name:${s(ref.name)}, UID:${s(ref.uid)}, Controller:${p(ref.controller)}, BlockOwnerDeletion:${p(ref.blockOwnerDeletion)}}`;
}

function validateOwnerReferences(refs: unknown): Cause[] {
  const causes: Cause[] = [];
  const field = 'metadata.ownerReferences';
  let firstController = '';
  for (const ref of Array.isArray(refs) ? refs.filter(isRecord) : []) {
    const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
    const kind = typeof ref.kind === 'string' ? ref.kind : '';
    if (!versionOf(apiVersion)) causes.push(invalid(`${field}.apiVersion`, apiVersion, 'version must not be empty'));
    if (!kind) causes.push(invalid(`${field}.kind`, kind, 'kind must not be empty'));
    if (!ref.name) causes.push(invalid(`${field}.name`, ref.name ?? '', 'name must not be empty'));
    if (!ref.uid) causes.push(invalid(`${field}.uid`, ref.uid ?? '', 'uid must not be empty'));
    if (BANNED_OWNERS.has(`${apiVersion}/${kind}`)) {
      causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${goOwnerReference(ref)}: /${apiVersion}, Kind=${kind} is disallowed from being an owner` });
    }
    if (ref.controller === true) {
      const controller = `${kind}/${String(ref.name ?? '')}`;
      if (!firstController) firstController = controller;
      else causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(refs)}: Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${controller}` });
    }
  }
  return causes;
}

function validateFinalizers(finalizers: unknown): Cause[] {
  const list = Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === 'string') : [];
  const causes = list.flatMap((f) => validateQualifiedName(f, 'metadata.finalizers'));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    causes.push(invalid('metadata.finalizers', list, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return causes;
}

/** Core's own finalizer rule, after every other check of the metadata: `metadata.finalizers[i]`. */
function validateKubeFinalizerNames(meta: ObjectMeta): Cause[] {
  return (meta.finalizers ?? []).flatMap((f, i) =>
    typeof f === 'string' && !f.includes('/') && !STANDARD_FINALIZERS.has(f)
      ? [invalid(`metadata.finalizers[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified')]
      : []);
}

/** Checked on create only: an update keeps the stored generation whatever the body says. */
export function validateGeneration(meta: ObjectMeta): Cause[] {
  return nonNegative('metadata.generation', meta.generation);
}

/** ValidateObjectMeta after the name and generation, for a create and an update alike. */
export function validateObjectMetaRest(info: ResourceInfo, meta: ObjectMeta): Cause[] {
  return [
    ...validateLabelsAndAnnotations(meta.labels, meta.annotations),
    ...validateOwnerReferences(meta.ownerReferences),
    ...validateFinalizers(meta.finalizers),
    ...(info.source === 'builtin' && info.group !== 'apiextensions.k8s.io' ? validateKubeFinalizerNames(meta) : []),
  ];
}
