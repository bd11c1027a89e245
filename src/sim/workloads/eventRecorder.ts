import { ApiError } from '../../shared/apiError.ts';
import { eventIdentity, eventName, newEvent, repeatPatch, WrittenEvents, type EventSource, type EventType, type WrittenEvent } from '../../shared/eventObject.ts';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import type { WorkloadCluster } from './workloadCluster.ts';

// Events as the controller-manager, scheduler and kubelet record them (client-go's EventRecorder,
// src/shared/eventObject.ts), written in process: the same event again (same object, type, reason,
// message and source) is counted on the Event already written instead of written anew. Recording
// is best effort, as client-go's is: a refused write (a namespace being deleted) never fails the
// controller that recorded it.

export type { EventType } from '../../shared/eventObject.ts';

export const EVENTS: GroupVersionResource = { group: '', version: 'v1', resource: 'events' };

export interface EventRecorder {
  /** Records that `reason` happened to `object`; `fieldPath` names a part of it (`spec.containers{web}`). */
  record(object: Readonly<KubeObject>, type: EventType, reason: string, message: string, ctx: RequestContext, fieldPath?: string): void;
}

export function eventRecorder(cluster: WorkloadCluster, source: EventSource): EventRecorder {
  const written = new WrittenEvents();

  const countAgain = (key: string, previous: WrittenEvent, nowMs: number, ctx: RequestContext): boolean => {
    try {
      const current = structuredClone(cluster.get(EVENTS, previous.namespace, previous.name, undefined, ctx).object) as KubeObject;
      const patch = repeatPatch((typeof current.count === 'number' ? current.count : previous.count) + 1, nowMs);
      cluster.update(EVENTS, previous.namespace, previous.name, { ...current, ...patch }, undefined, ctx);
      written.set(key, { ...previous, count: patch.count });
      return true;
    } catch {
      // Gone (deleted, expired) or changed under us: write a new one.
      written.delete(key);
      return false;
    }
  };

  return {
    record(object, type, reason, message, ctx, fieldPath) {
      const spec = { type, reason, message, ...(fieldPath ? { fieldPath } : {}) };
      const key = eventIdentity(object, spec, source);
      const nowMs = cluster.clock.now();
      const previous = written.get(key);
      if (previous && countAgain(key, previous, nowMs, ctx)) return;
      const event = newEvent(object, spec, source, nowMs);
      const namespace = event.metadata.namespace ?? 'default';
      for (let attempt = 1; attempt <= 3; attempt++) {
        try {
          cluster.create(EVENTS, namespace, event, ctx);
          written.set(key, { namespace, name: event.metadata.name ?? '', count: 1 });
          return;
        } catch (err) {
          // Best effort, as client-go's recorder: the controller's own work goes on. Only a name
          // taken (an Event kept from before a restart) is worth another try.
          if (!(err instanceof ApiError && err.code === 409)) return;
          event.metadata.name = eventName(object.metadata.name ?? '', nowMs);
        }
      }
    },
  };
}
