import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { open, readdir, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

// The file operations persistence needs once the sim is serving, behind one interface so tests can
// make the disk fail (ENOSPC, EIO) without root or a tiny filesystem. Every file is created 0600
// (and narrowed to 0600 if it existed): the journal and snapshots hold Secret data.

export const PRIVATE_FILE_MODE = 0o600;

export interface WritableFile {
  write(data: Buffer, position: number): Promise<void>;
  /** Data on disk (fdatasync). */
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

export interface PersistenceFs {
  /** Creates or truncates `path`, mode 0600. */
  create(path: string): Promise<WritableFile>;
  /** Creates `path` empty (mode 0600) unless it exists, which is left as it is. */
  ensure(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  list(dir: string): Promise<string[]>;
  /** Makes renames and creations in `dir` durable. */
  syncDir(dir: string): Promise<void>;
  /** Replaces `path` with `content` durably (temp file, fsync, rename, directory fsync) before returning. */
  replaceSync(path: string, content: string): void;
}

export const nodePersistenceFs: PersistenceFs = {
  async create(path) {
    const handle = await open(path, 'w', PRIVATE_FILE_MODE);
    try {
      await handle.chmod(PRIVATE_FILE_MODE);
    } catch (err) {
      await handle.close();
      throw err;
    }
    return {
      async write(data, position) {
        let done = 0;
        while (done < data.length) {
          const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
          done += bytesWritten;
        }
      },
      sync: () => handle.datasync(),
      truncate: (length) => handle.truncate(length),
      close: () => handle.close(),
    };
  },
  async ensure(path) {
    const handle = await open(path, 'a', PRIVATE_FILE_MODE);
    await handle.close();
  },
  rename: (from, to) => rename(from, to),
  unlink: (path) => unlink(path),
  list: (dir) => readdir(dir),
  async syncDir(dir) {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  replaceSync(path, content) {
    replaceFileSync(path, content);
  },
};

/** A durable, atomic, owner-only write: used at start and for the tiny resourceVersion reservation. */
export function replaceFileSync(path: string, content: string | Buffer): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
    const data = typeof content === 'string' ? Buffer.from(content) : content;
    let done = 0;
    while (done < data.length) done += writeSync(fd, data, done, data.length - done, done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  syncDirSync(dirname(path));
}

export function syncDirSync(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
