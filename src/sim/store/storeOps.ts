import type { KubeObject } from '../../shared/k8s.ts';
import type { KindRegistry } from '../resources/registry.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import type { MvccStore, ResourceTable } from './mvccStore.ts';
import type { OwnerIndex } from './ownerIndex.ts';
import type { Stored } from './storedObject.ts';
import type { HistoryEvent } from './history.ts';
import type { DeleteOptions, RequestContext, Subresource } from './types.ts';

/**
 * What the built-in controllers (garbage collection, namespace and CRD lifecycles) may do to the
 * store: the same writes a client makes, plus direct commits for the steps only controllers take.
 * Each takes the context of the write it is part of.
 */
export interface StoreOps {
  readonly mvcc: MvccStore;
  readonly registry: KindRegistry;
  readonly owners: OwnerIndex;
  delete(info: ResourceInfo, namespace: string, name: string, options: DeleteOptions, ctx: RequestContext): { object: Stored; deleted: boolean };
  commitUpdate(info: ResourceInfo, table: ResourceTable, key: string, current: Stored, next: KubeObject, ctx: RequestContext, subresource?: Subresource): Stored;
  commit(table: ResourceTable, key: string, next: KubeObject | undefined, ctx: RequestContext): HistoryEvent;
}

export const NAMESPACES = { group: '', resource: 'namespaces' };
