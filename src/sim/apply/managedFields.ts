import { FieldSet } from './fieldSet.ts';
import { RecentDecodings } from './recentDecodings.ts';

// metadata.managedFields as the API server reads and writes it: one entry per manager, operation
// (Apply or Update), apiVersion (Update only: an applier is one manager whatever version it
// applies with) and subresource, each with the set of fields it owns as `fieldsV1`.

export type Operation = 'Apply' | 'Update';

export interface ManagerEntry {
  manager: string;
  operation: Operation;
  apiVersion: string;
  time?: string;
  subresource?: string;
  set: FieldSet;
  /** The stored entry this one was read from, reused as is when nothing about it changed. */
  raw?: Readonly<Record<string, unknown>>;
}

export const MAX_UPDATE_MANAGERS = 10;

/**
 * The bytes each cache of decodings may keep. A field set's node takes ~270 bytes of heap once
 * decoded (a Map, its entry, the node), ~300 with its path element: about 200 objects of 500 fields.
 */
const CACHE_BYTES = 32 * 1024 * 1024;
const BYTES_PER_NODE = 300;
const ANCIENT = 'ancient-changes';

/** Who an entry belongs to: entries of the same identity are one. */
export function identityOf(e: Pick<ManagerEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  return `${e.manager}\u0000${e.operation}\u0000${e.operation === 'Apply' ? '' : e.apiVersion}\u0000${e.subresource ?? ''}`;
}

const decodedSets = new RecentDecodings<object, FieldSet>(CACHE_BYTES);

function setOf(fieldsV1: unknown): FieldSet {
  if (typeof fieldsV1 !== 'object' || fieldsV1 === null) return FieldSet.fromFieldsV1(fieldsV1 ?? {});
  let set = decodedSets.get(fieldsV1);
  if (!set) {
    set = FieldSet.fromFieldsV1(fieldsV1);
    // Stored objects are frozen: their decoded sets can be kept for the next write (of the recently written ones).
    if (Object.isFrozen(fieldsV1)) decodedSets.set(fieldsV1, set, set.nodeCount() * BYTES_PER_NODE);
  }
  return set;
}

const decodedLists = new RecentDecodings<object, readonly ManagerEntry[]>(CACHE_BYTES);

/**
 * The lists the running write encoded, with their decodings: cached once the write commits them
 * (committedFields), dropped when it ends (writeEnded). A refused or dry-run write keeps nothing.
 */
const encodedByThisWrite = new Map<object, readonly ManagerEntry[]>();

function bytesOf(entries: readonly ManagerEntry[]): number {
  let nodes = 0;
  for (const e of entries) nodes += e.set.nodeCount();
  return nodes * BYTES_PER_NODE;
}

/** The stored object now holds `list` (as encodeManagedFields made it): its decoding is kept for its next write. */
export function committedFields(list: unknown): void {
  if (typeof list !== 'object' || list === null) return;
  const entries = encodedByThisWrite.get(list);
  if (entries === undefined) return;
  encodedByThisWrite.delete(list);
  decodedLists.set(list, entries, bytesOf(entries));
}

/** The write is over: what it encoded and did not commit goes. */
export function writeEnded(): void {
  encodedByThisWrite.clear();
}

/** Reads managedFields; throws (with the API server's wording) on an entry it would not decode. Entries are shared: never modify them. */
export function decodeManagedFields(raw: unknown): ManagerEntry[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new Error('managedFields must be a list');
  const cached = decodedLists.get(raw) ?? encodedByThisWrite.get(raw);
  if (cached) return [...cached];
  const entries = decodeEntries(raw);
  // A stored object's (frozen) list is read again by the next write of that object.
  if (Object.isFrozen(raw)) decodedLists.set(raw, entries, bytesOf(entries));
  return [...entries];
}

function decodeEntries(raw: unknown[]): ManagerEntry[] {
  const byIdentity = new Map<string, ManagerEntry>();
  raw.forEach((item: unknown, i) => {
    if (typeof item !== 'object' || item === null) throw new Error(`managed fields entry ${i} is not an object`);
    const e = item as Record<string, unknown>;
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (typeof e.apiVersion !== 'string' || e.apiVersion === '') throw new Error('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '') throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    const entry: ManagerEntry = {
      manager: typeof e.manager === 'string' ? e.manager : '',
      operation: e.operation,
      apiVersion: e.apiVersion,
      set: setOf(e.fieldsV1),
      raw: e,
    };
    if (typeof e.time === 'string') entry.time = e.time;
    if (typeof e.subresource === 'string' && e.subresource) entry.subresource = e.subresource;
    byIdentity.set(identityOf(entry), entry);
  });
  return [...byIdentity.values()];
}

/** `[]` or `[{}]` in a request: the client asks for managedFields to be cleared. */
export function isReset(raw: unknown): boolean {
  if (!Array.isArray(raw)) return false;
  if (raw.length === 0) return true;
  const only = raw[0] as unknown;
  return raw.length === 1 && typeof only === 'object' && only !== null && Object.keys(only).length === 0;
}

function compareEntries(p: ManagerEntry, q: ManagerEntry): number {
  if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
  // RFC 3339 times in UTC at second precision sort as strings.
  const ps = p.time ?? '';
  const qs = q.time ?? '';
  if (ps !== qs) return ps < qs ? -1 : 1;
  if (p.manager !== q.manager) return p.manager < q.manager ? -1 : 1;
  if (p.apiVersion !== q.apiVersion) return p.apiVersion < q.apiVersion ? -1 : 1;
  const a = p.subresource ?? '';
  const b = q.subresource ?? '';
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The wire form, in the API server's order (Apply first, then oldest first); empty entries dropped. */
export function encodeManagedFields(entries: readonly ManagerEntry[]): Record<string, unknown>[] {
  const kept = entries.filter((e) => !e.set.isEmpty()).sort(compareEntries);
  const encoded = kept.map((e) => {
    if (e.raw) return e.raw as Record<string, unknown>;
    const out: Record<string, unknown> = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
    if (e.time) out.time = e.time;
    out.fieldsType = 'FieldsV1';
    out.fieldsV1 = e.set.toFieldsV1();
    if (e.subresource) out.subresource = e.subresource;
    return out;
  });
  // The next write of this object reads this list back: it finds these entries instead of decoding.
  encodedByThisWrite.set(encoded, kept.map((e, i) => (e.raw ? e : { ...e, raw: encoded[i] })));
  return encoded;
}

/** At most ten Update entries: the oldest are merged into one `ancient-changes` entry, as the API server does. */
export function capUpdateManagers(entries: ManagerEntry[]): ManagerEntry[] {
  const updates = entries.filter((e) => e.operation === 'Update').sort(compareEntries);
  if (updates.length <= MAX_UPDATE_MANAGERS) return entries;
  const drop = new Set<ManagerEntry>();
  let ancient = entries.find((e) => e.operation === 'Update' && e.manager === ANCIENT);
  const remaining = (): number => entries.filter((e) => e.operation === 'Update' && !drop.has(e)).length;
  for (const e of updates) {
    if (remaining() <= MAX_UPDATE_MANAGERS) break;
    if (e === ancient) continue;
    drop.add(e);
    const merged: ManagerEntry = ancient
      ? { ...ancient, set: ancient.set.union(e.set), raw: undefined }
      : { manager: ANCIENT, operation: 'Update', apiVersion: e.apiVersion, time: e.time, set: e.set };
    if (ancient) drop.add(ancient);
    ancient = merged;
    entries.push(merged);
  }
  return entries.filter((e) => !drop.has(e));
}
