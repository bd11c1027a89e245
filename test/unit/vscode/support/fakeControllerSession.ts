// A controller session the views can listen to, driven by the test (events sent by hand), and a
// reconcile record to send through it.
import type { RuntimeEvents } from '../../../../src/runtime/controllerSession.ts';
import type { ReconcileRecord } from '../../../../src/controllerProtocol/records.ts';
import { TypedEmitter } from '../../../../src/runtime/typedEmitter.ts';
import type { ControllerShape } from '../../../../src/controllerProtocol/protocol.ts';

export class FakeSession extends TypedEmitter<RuntimeEvents> {
  controller: ControllerShape | undefined;
  send<K extends keyof RuntimeEvents>(event: K, payload: RuntimeEvents[K]): void {
    this.emit(event, payload);
  }
}

export const SHAPE: ControllerShape = { name: 'replicaset-controller', forKind: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, owns: [{ apiVersion: 'v1', kind: 'Pod' }], watches: [], workers: 1 };

export function record(partial: Partial<ReconcileRecord> = {}): ReconcileRecord {
  return {
    seq: 1,
    reconcileId: 'r1',
    controller: 'replicaset-controller',
    worker: 0,
    forKind: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
    key: 'default/web',
    request: { namespace: 'default', name: 'web' },
    trigger: [{ type: 'ADDED', kind: 'ReplicaSet', apiVersion: 'apps/v1', key: 'default/web', resourceVersion: '10', via: 'for', at: 1000 }],
    cacheResourceVersion: '10',
    cacheSeq: 3,
    startedAt: 1000,
    writes: [],
    logs: [],
    ...partial,
  };
}
