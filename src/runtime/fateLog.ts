import type { EventFate } from '../controllerProtocol/index.ts';

// The fates of the watch events a session's controllers received (see EventFate), kept per object
// so "why not?" can answer for any object and any change to it. Each object keeps its most recent
// fates; an object's list is dropped when the run forgets the object (never, by default), so the
// memory is what the controller's own caches hold, a few fates each.

/** Fates kept per object: enough for its recent changes at every source of every controller. */
const PER_OBJECT = 256;

const objectId = (kind: string, key: string) => `${kind.toLowerCase()}\0${key}`;

export class FateLog {
  private readonly byObject = new Map<string, EventFate[]>();
  private total = 0;

  add(fate: EventFate): void {
    const id = objectId(fate.kind, fate.key);
    let list = this.byObject.get(id);
    if (!list) this.byObject.set(id, (list = []));
    list.push(fate);
    this.total++;
    // Old fates fall off in batches, not one shift each.
    if (list.length > PER_OBJECT * 2) list.splice(0, list.length - PER_OBJECT);
  }

  /** The fates of the events about one object (kind by name, any case), oldest first. */
  about(kind: string, key: string): readonly EventFate[] {
    return this.byObject.get(objectId(kind, key)) ?? [];
  }

  /** How many fates were recorded (kept or not). */
  get count(): number {
    return this.total;
  }
}
