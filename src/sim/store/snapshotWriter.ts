import { join } from 'node:path';
import type { PersistenceFs, WritableFile } from './persistenceFs.ts';
import { SNAPSHOT_FILE } from './stateDir.ts';
import type { Stored } from './storedObject.ts';

// Writing `state.json` while serving: the objects are captured at one resourceVersion (references to
// immutable versions, no copies), then serialized and written a chunk at a time, yielding to the
// event loop between chunks, so a 20k-object snapshot never stalls requests and watches. It lands
// by rename only once complete and fsync'ed: a crash leaves the previous snapshot.

export interface SnapshotEntry {
  group: string;
  resource: string;
  stored: Stored;
}

const OBJECTS_PER_CHUNK = 250;

/** `journal`: the journal segment that holds the writes after this snapshot (on disk before it lands). */
export function snapshotHeader(resourceVersion: number, reservedResourceVersion: number, journal: number): string {
  return `{"version":1,"resourceVersion":${resourceVersion},"reservedResourceVersion":${reservedResourceVersion},"journal":${journal},"objects":[`;
}

export function snapshotItem(e: SnapshotEntry): string {
  return `{"group":${JSON.stringify(e.group)},"resource":${JSON.stringify(e.resource)},"object":${e.stored.json()}}`;
}

export const SNAPSHOT_FOOTER = ']}';

/** Writes the snapshot; resolves to its size in bytes. */
export async function writeSnapshot(fs: PersistenceFs, dir: string, resourceVersion: number, reserved: number, journal: number, entries: readonly SnapshotEntry[]): Promise<number> {
  const file = join(dir, SNAPSHOT_FILE);
  const tmp = `${file}.tmp`;
  let out: WritableFile | undefined;
  let position = 0;
  try {
    out = await fs.create(tmp);
    const write = async (text: string) => {
      const data = Buffer.from(text, 'utf8');
      await out!.write(data, position);
      position += data.length;
    };
    await write(snapshotHeader(resourceVersion, reserved, journal));
    for (let i = 0; i < entries.length; i += OBJECTS_PER_CHUNK) {
      const parts: string[] = [];
      for (const e of entries.slice(i, i + OBJECTS_PER_CHUNK)) parts.push(snapshotItem(e));
      await write((i === 0 ? '' : ',') + parts.join(','));
    }
    await write(SNAPSHOT_FOOTER);
    await out.sync();
    await out.close();
    out = undefined;
    await fs.rename(tmp, file);
    await fs.syncDir(dir);
    return position;
  } catch (err) {
    await out?.close().catch(() => undefined);
    await fs.unlink(tmp).catch(() => undefined);
    throw err;
  }
}
