import type { KubeObject } from '../../shared/k8s.ts';
import type { TableColumn } from '../vocabulary/tableCells.ts';
import { BUILTIN_KINDS } from './builtinKinds.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';

// The registered kinds by `group/resource`: what the store, tables and discovery ask about a kind.
// Custom resources have none (their CRD says what they are).

export type { KindStrategy, StoredObjects } from './kindStrategy.ts';
export type { KindModule } from './kindModule.ts';
export { BUILTIN_KINDS } from './builtinKinds.ts';

type KindRef = { group: string; resource: string; source?: string };

// A version served by conversion has the strategy and columns of the version it is stored as.
const BY_RESOURCE = new Map(BUILTIN_KINDS.filter((m) => !m.api.storedAs).map((m) => [`${m.api.group}/${m.api.resource}`, m]));

/** The module of a built-in kind; undefined for custom resources and unknown ones. */
export function kindModuleFor(info: KindRef): KindModule | undefined {
  if (info.source === 'crd') return undefined;
  return BY_RESOURCE.get(`${info.group}/${info.resource}`);
}

const NONE: KindStrategy = {};

export function strategyFor(info: KindRef): KindStrategy {
  return kindModuleFor(info)?.strategy ?? NONE;
}

/** The API server's defaults for an object of this kind. */
export function defaultObject(info: KindRef, obj: KubeObject): void {
  strategyFor(info).defaults?.(obj);
}

/**
 * Whether the kind keeps `metadata.generation`: custom resources do, and the built-in kinds whose
 * module says so (their strategy sets it in kube-apiserver: workloads, CRDs, Ingresses,
 * PodDisruptionBudgets, webhook configurations…; ConfigMaps, Services, RBAC… have none).
 */
export function tracksGeneration(info: KindRef): boolean {
  return info.source === 'crd' || kindModuleFor(info)?.generation === true;
}

/** The printer columns of a built-in kind by its plural (first registered kind with it), undefined when it has none of its own. */
export function builtinColumns(resource: string, group?: string): TableColumn[] | undefined {
  if (group !== undefined) return BY_RESOURCE.get(`${group}/${resource}`)?.columns;
  return BUILTIN_KINDS.find((m) => m.api.resource === resource && !m.api.storedAs)?.columns;
}
