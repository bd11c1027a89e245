import type { KubeObject, Status, WatchEventType } from '../../shared/k8s.ts';
import { INITIAL_EVENTS_END_ANNOTATION } from '../../shared/k8s.ts';
import type { Stored } from './storedObject.ts';
import type { SimWatchEvent } from './types.ts';

// Watch events as watchers receive them. Events built on a stored object share its cached line.

class StoredEvent implements SimWatchEvent {
  readonly type: WatchEventType;
  private readonly stored: Stored;
  constructor(type: WatchEventType, stored: Stored) {
    this.type = type;
    this.stored = stored;
  }
  get object(): Readonly<KubeObject> {
    return this.stored.object;
  }
  line(): string {
    return this.stored.line(this.type);
  }
}

const eventCache = new WeakMap<Stored, Partial<Record<WatchEventType, StoredEvent>>>();

/** The (shared) event of `type` carrying `stored`. */
export function storedEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', stored: Stored): SimWatchEvent {
  let byType = eventCache.get(stored);
  if (!byType) eventCache.set(stored, (byType = {}));
  return (byType[type] ??= new StoredEvent(type, stored));
}

class PlainEvent implements SimWatchEvent {
  private cached: string | undefined;
  readonly type: WatchEventType;
  readonly object: Readonly<KubeObject>;
  constructor(type: WatchEventType, object: Readonly<KubeObject>) {
    this.type = type;
    this.object = object;
  }
  line(): string {
    return (this.cached ??= JSON.stringify({ type: this.type, object: this.object }));
  }
}

/** A BOOKMARK: only kind, apiVersion and metadata.resourceVersion (plus the initial-events-end annotation). */
export function bookmarkEvent(apiVersion: string, kind: string, rv: number, initialEventsEnd = false): SimWatchEvent {
  const metadata: KubeObject['metadata'] = { resourceVersion: String(rv) };
  if (initialEventsEnd) metadata.annotations = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
  return new PlainEvent('BOOKMARK', { kind, apiVersion, metadata });
}

/** `event`'s object under another type (coalescing folds two events of an object into one). */
export function retypedEvent(type: 'ADDED' | 'MODIFIED', event: SimWatchEvent): SimWatchEvent {
  return event.type === type ? event : new PlainEvent(type, event.object);
}

export function errorEvent(status: Status): SimWatchEvent {
  return new PlainEvent('ERROR', status as unknown as KubeObject);
}
