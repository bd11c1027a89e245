import { decodeFateBatch, type EventFate } from '../controllerProtocol/index.ts';

// The fates of the watch events a session's controllers received (see EventFate), kept per object
// so "why not?" can answer for any object and any change to it. Each object keeps its most recent
// fates; an object's list is dropped when the run forgets the object (never, by default), so the
// memory is what the controller's own caches hold, a few fates each.
//
// Every event leaves a fate but few are ever asked about, so the batches the hosts send are kept as
// they came (one string each) and decoded into the index only when someone asks, or when so many
// wait that the strings would outgrow what the index keeps.

/** Fates kept per object: enough for its recent changes at every source of every controller. */
const PER_OBJECT = 256;

/** Undecoded characters kept at most before they are indexed anyway (about 40 per fate). */
const MAX_UNDECODED_CHARS = 64 * 1024 * 1024;

const objectId = (kind: string, key: string) => `${kind.toLowerCase()}\0${key}`;

export class FateLog {
  private readonly byObject = new Map<string, EventFate[]>();
  private undecoded: string[] = [];
  private undecodedChars = 0;
  private total = 0;

  /** A batch as the host sent it (fateBatch.ts), of `count` fates. */
  addBatch(data: string, count: number): void {
    this.undecoded.push(data);
    this.undecodedChars += data.length;
    this.total += count;
    if (this.undecodedChars > MAX_UNDECODED_CHARS) this.index();
  }

  add(fate: EventFate): void {
    this.index();
    this.keep(fate);
    this.total++;
  }

  /** The fates of the events about one object (kind by name, any case), oldest first. */
  about(kind: string, key: string): readonly EventFate[] {
    this.index();
    return this.byObject.get(objectId(kind, key)) ?? [];
  }

  /** How many fates were recorded (kept or not). */
  get count(): number {
    return this.total;
  }

  private index(): void {
    if (this.undecoded.length === 0) return;
    const batches = this.undecoded;
    this.undecoded = [];
    this.undecodedChars = 0;
    for (const data of batches) for (const fate of decodeFateBatch(data)) this.keep(fate);
  }

  private keep(fate: EventFate): void {
    const id = objectId(fate.kind, fate.key);
    let list = this.byObject.get(id);
    if (!list) this.byObject.set(id, (list = []));
    list.push(fate);
    // Old fates fall off in batches, not one shift each.
    if (list.length > PER_OBJECT * 2) list.splice(0, list.length - PER_OBJECT);
  }
}
