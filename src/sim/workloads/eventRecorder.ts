import { ApiError } from '../../shared/apiError.ts';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import { timeString } from './pods.ts';
import type { WorkloadCluster } from './workloadCluster.ts';

// Events as the controller-manager, scheduler and kubelet record them (client-go's EventRecorder):
// a core/v1 Event in the object's namespace, named after the object and the time, and the same
// event again (same object, type, reason, message and source) counted on the Event already written
// instead of written anew. Recording is best effort, as client-go's is: a refused write (a
// namespace being deleted) never fails the controller that recorded it.

export const EVENTS: GroupVersionResource = { group: '', version: 'v1', resource: 'events' };

/** client-go's correlator remembers this many events to count repeats on. */
const REMEMBERED = 4096;

/** Told apart the events of one millisecond (client-go's names use nanoseconds). */
let sequence = 0;

function eventName(objectName: string, nowMs: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${objectName}.${(BigInt(nowMs) * 1_000_000n + BigInt(sequence)).toString(16)}`;
}

export interface EventSource {
  component: string;
  /** The Node, for a kubelet's events. */
  host?: string;
}

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  /** Records that `reason` happened to `object`; `fieldPath` names a part of it (`spec.containers{web}`). */
  record(object: Readonly<KubeObject>, type: EventType, reason: string, message: string, ctx: RequestContext, fieldPath?: string): void;
}

interface Written {
  namespace: string;
  name: string;
  count: number;
}

export function eventRecorder(cluster: WorkloadCluster, source: EventSource): EventRecorder {
  const written = new Map<string, Written>();

  const remember = (key: string, event: Written): void => {
    written.delete(key);
    written.set(key, event);
    if (written.size > REMEMBERED) written.delete(written.keys().next().value!);
  };

  const countAgain = (key: string, previous: Written, now: string, ctx: RequestContext): boolean => {
    try {
      const current = structuredClone(cluster.get(EVENTS, previous.namespace, previous.name, undefined, ctx).object) as KubeObject;
      const count = (typeof current.count === 'number' ? current.count : previous.count) + 1;
      current.count = count;
      current.lastTimestamp = now;
      cluster.update(EVENTS, previous.namespace, previous.name, current, undefined, ctx);
      remember(key, { ...previous, count });
      return true;
    } catch {
      // Gone (deleted, expired) or changed under us: write a new one.
      written.delete(key);
      return false;
    }
  };

  return {
    record(object, type, reason, message, ctx, fieldPath) {
      const meta = object.metadata;
      const involvedObject: Record<string, string> = { kind: object.kind ?? '', name: meta.name ?? '', uid: meta.uid ?? '', apiVersion: object.apiVersion ?? '', resourceVersion: meta.resourceVersion ?? '' };
      if (meta.namespace) involvedObject.namespace = meta.namespace;
      if (fieldPath) involvedObject.fieldPath = fieldPath;
      const key = JSON.stringify([source.component, source.host ?? '', involvedObject.kind, involvedObject.namespace ?? '', involvedObject.name, involvedObject.uid, fieldPath ?? '', type, reason, message]);
      const nowMs = cluster.clock.now();
      const now = timeString(nowMs);
      const previous = written.get(key);
      if (previous && countAgain(key, previous, now, ctx)) return;
      const namespace = meta.namespace || 'default';
      const event: KubeObject = {
        apiVersion: 'v1',
        kind: 'Event',
        // client-go's name: the object's, then the time in nanoseconds in hex.
        metadata: { name: eventName(meta.name ?? '', nowMs), namespace },
        involvedObject,
        reason,
        message,
        source: source.host ? { component: source.component, host: source.host } : { component: source.component },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
        type,
        reportingComponent: source.component,
        reportingInstance: source.host ?? '',
      };
      for (let attempt = 1; attempt <= 3; attempt++) {
        try {
          cluster.create(EVENTS, namespace, event, ctx);
          remember(key, { namespace, name: event.metadata.name ?? '', count: 1 });
          return;
        } catch (err) {
          // Best effort, as client-go's recorder: the controller's own work goes on. Only a name
          // taken (an Event kept from before a restart) is worth another try.
          if (!(err instanceof ApiError && err.code === 409)) return;
          event.metadata.name = eventName(meta.name ?? '', nowMs);
        }
      }
    },
  };
}
