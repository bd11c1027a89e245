import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { validateCrdSchemas } from '../crdSchema/structuralSchema.ts';
import { goCrdVersions } from './crdVersionsGoValue.ts';
import { ALL_VERBS, storageVersionHash } from './builtins.ts';
import type { ResourceInfo, ScaleMapping, SubresourceInfo } from '../vocabulary/resourceInfo.ts';

// CustomResourceDefinitions: what one declares (apiextensions.k8s.io/v1) turned into served
// resources, plus the status the real apiextensions controller would write (Established,
// NamesAccepted) — the sim writes it itself at create/update time.

interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  subresources?: { status?: object; scale?: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string } };
}

interface CrdSpec {
  group?: string;
  scope?: string;
  names?: { plural?: string; singular?: string; kind?: string; listKind?: string; shortNames?: string[]; categories?: string[] };
  versions?: CrdVersion[];
}

const specOf = (crd: Readonly<KubeObject>): CrdSpec => (crd.spec ?? {}) as CrdSpec;

/** Field errors that make a CRD invalid (422), in the apiextensions validator's words. */
export function validateCrd(crd: Readonly<KubeObject>): Cause[] {
  const spec = specOf(crd);
  const causes: Cause[] = [];
  const need = (ok: boolean, field: string, message: string): void => {
    if (!ok) causes.push({ reason: 'FieldValueRequired', field, message });
  };
  need(!!spec.group, 'spec.group', 'Required value');
  need(!!spec.names?.plural, 'spec.names.plural', 'Required value');
  need(!!spec.names?.kind, 'spec.names.kind', 'Required value');
  if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster') {
    causes.push({ reason: 'FieldValueNotSupported', field: 'spec.scope', message: `Unsupported value: "${spec.scope ?? ''}": supported values: "Cluster", "Namespaced"` });
  }
  const versions = spec.versions ?? [];
  if (versions.filter((v) => v.storage).length !== 1) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.versions', message: `Invalid value: ${goCrdVersions(spec.versions)}: must have exactly one version marked as storage version` });
  }
  if (spec.group && spec.names?.plural && crd.metadata.name !== `${spec.names.plural}.${spec.group}`) {
    causes.push({ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "${crd.metadata.name ?? ''}": must be spec.names.plural+"."+spec.group` });
  }
  causes.push(...storedVersionCauses(crd, versions));
  return causes;
}

/**
 * status.storedVersions must hold every storage version. A write adds the first storage version to
 * them (a create starts from none: nil), so a CRD without one, or with two, is refused here too.
 */
function storedVersionCauses(crd: Readonly<KubeObject>, versions: CrdVersion[]): Cause[] {
  const fromStatus = (crd.status as { storedVersions?: unknown } | undefined)?.storedVersions;
  const firstStorage = versions.find((v) => v.storage)?.name;
  // As the strategy's PrepareForCreate/PrepareForUpdate leave them: the first storage version added.
  const kept = Array.isArray(fromStatus) ? fromStatus.map(String) : undefined;
  const stored = firstStorage && !kept?.includes(firstStorage) ? [...(kept ?? []), firstStorage] : kept;
  const value = stored ? `[]string{${stored.map((s) => JSON.stringify(s)).join(', ')}}` : '[]string(nil)';
  const field = 'status.storedVersions';
  if (!stored || stored.length === 0) return [{ reason: 'FieldValueInvalid', field, message: `Invalid value: ${value}: must have at least one stored version` }];
  return versions.filter((v) => v.storage && !stored.includes(v.name ?? '')).map((v) => ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${value}: must have the storage version ${v.name ?? ''}` }));
}

/**
 * validateCrd plus the rules on each version's schema (required, structural): what a create or
 * update must pass. A CRD already stored is served on validateCrd alone.
 */
export function validateCrdForWrite(crd: Readonly<KubeObject>): Cause[] {
  return [...validateCrd(crd), ...validateCrdSchemas(specOf(crd) as Parameters<typeof validateCrdSchemas>[0])];
}

/** One ResourceInfo per served version; the storage version first. Call only on a valid CRD. */
export function crdResources(crd: Readonly<KubeObject>): ResourceInfo[] {
  const spec = specOf(crd);
  const names = spec.names ?? {};
  const group = spec.group ?? '';
  const kind = names.kind ?? '';
  const served = (spec.versions ?? []).filter((v) => v.served !== false && v.name);
  const storage = (spec.versions ?? []).find((v) => v.storage)?.name ?? served[0]?.name ?? 'v1';
  const ordered = [...served].sort((a, b) => Number(b.name === storage) - Number(a.name === storage));
  const servedVersions = ordered.map((v) => v.name ?? '');
  return ordered.map((v) => {
    const subresources: SubresourceInfo[] = [];
    let scale: ScaleMapping | undefined;
    if (v.subresources?.scale) {
      subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] });
      const s = v.subresources.scale;
      scale = { specReplicasPath: trimDot(s.specReplicasPath ?? '.spec.replicas'), statusReplicasPath: trimDot(s.statusReplicasPath ?? '.status.replicas') };
      if (s.labelSelectorPath) scale.labelSelectorPath = trimDot(s.labelSelectorPath);
    }
    if (v.subresources?.status) subresources.push({ name: 'status', kind, verbs: ['get', 'patch', 'update'] });
    const info: ResourceInfo = {
      group,
      version: v.name ?? '',
      resource: names.plural ?? '',
      kind,
      namespaced: spec.scope !== 'Cluster',
      shortNames: names.shortNames ?? [],
      singularName: names.singular ?? kind.toLowerCase(),
      verbs: ALL_VERBS,
      categories: names.categories ?? [],
      subresources,
      servedVersions,
      storageVersion: storage,
      nameRule: 'subdomain',
      source: 'crd',
      storageVersionHash: storageVersionHash(group, v.name ?? '', kind),
    };
    if (scale) info.scale = scale;
    return info;
  });
}

function trimDot(path: string): string {
  return path.startsWith('.') ? path.slice(1) : path;
}

/** The status the apiextensions controllers would set on an accepted CRD. */
/**
 * A CRD's status as its create stores it: only the stored version. kube-apiserver's naming and
 * establishing controllers accept the names and set the conditions right after (crdLifecycle.ts).
 */
export function crdStatusOnCreate(crd: Readonly<KubeObject>): Record<string, unknown> {
  const storage = (specOf(crd).versions ?? []).find((v) => v.storage)?.name;
  return { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: storage ? [storage] : [] };
}

export function crdStatus(crd: Readonly<KubeObject>, now: string): Record<string, unknown> {
  const spec = specOf(crd);
  const names = spec.names ?? {};
  const storage = (spec.versions ?? []).find((v) => v.storage)?.name;
  const condition = (type: string, reason: string, message: string): Record<string, string> => ({
    type, status: 'True', lastTransitionTime: now, reason, message,
  });
  return {
    acceptedNames: {
      plural: names.plural,
      singular: names.singular ?? (names.kind ?? '').toLowerCase(),
      kind: names.kind,
      listKind: names.listKind ?? `${names.kind ?? ''}List`,
      ...(names.shortNames ? { shortNames: names.shortNames } : {}),
      ...(names.categories ? { categories: names.categories } : {}),
    },
    conditions: [
      condition('NamesAccepted', 'NoConflicts', 'no conflicts found'),
      condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
    ],
    storedVersions: storage ? [storage] : [],
  };
}
