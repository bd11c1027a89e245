import { eventIdentity, newEvent, repeatPatch, WrittenEvents, type EventSource, type EventType } from '../../shared/eventObject.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { ObjectWriter } from './ports.ts';

// The Events a TypeScript controller records with `ctx.recorder.event(…)`, written as
// controller-runtime's recorder writes them: in the background and in order, so a reconcile never
// waits on them, and the same event again (same object, type, reason, message) raises the count of
// the Event already written. A write the server refuses is reported, never thrown.

/** client-go cuts longer messages. */
const MAX_MESSAGE = 1024;

export interface EventWriter {
  /** Queues the Event; resolves with why it could not be written, or undefined once it was. */
  record(object: Readonly<KubeObject>, type: EventType, reason: string, message: string): Promise<string | undefined>;
  /** Resolves once every Event queued so far was written or refused. */
  flush(): Promise<void>;
}

export function createEventWriter(writer: ObjectWriter, source: EventSource, now: () => number): EventWriter {
  const written = new WrittenEvents();
  let tail: Promise<unknown> = Promise.resolve();

  const write = async (object: Readonly<KubeObject>, type: EventType, reason: string, message: string): Promise<string | undefined> => {
    const spec = { type, reason, message: message.length > MAX_MESSAGE ? message.slice(0, MAX_MESSAGE) : message };
    const key = eventIdentity(object, spec, source);
    const previous = written.get(key);
    if (previous) {
      try {
        const count = previous.count + 1;
        await writer.patch({ apiVersion: 'v1', kind: 'Event', namespace: previous.namespace, name: previous.name }, repeatPatch(count, now()), 'merge');
        written.set(key, { ...previous, count });
        return undefined;
      } catch {
        // Gone (expired, deleted): written anew below.
        written.delete(key);
      }
    }
    const event = newEvent(object, spec, source, now());
    try {
      await writer.create(event);
      written.set(key, { namespace: event.metadata.namespace ?? 'default', name: event.metadata.name ?? '', count: 1 });
      return undefined;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  };

  return {
    record(object, type, reason, message) {
      const done = tail.then(() => write(object, type, reason, message));
      tail = done;
      return done;
    },
    flush: () => tail.then(() => undefined),
  };
}
