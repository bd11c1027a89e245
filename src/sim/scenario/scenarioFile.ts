import { readFile } from 'node:fs/promises';

// Reading a scenario from its file: a path that names no readable file is one line that says so
// (`scenario file not found: PATH`), where Node would say `ENOENT: no such file or directory, open …`
// (or `EISDIR: illegal operation on a directory, read`, naming no path at all).

/** A scenario path that cannot be read, and why, in words for the person who typed it. */
export class ScenarioFileUnreadable extends Error {
  readonly path: string;

  constructor(path: string, message: string) {
    super(message);
    this.name = 'ScenarioFileUnreadable';
    this.path = path;
  }
}

export class ScenarioFileNotFound extends ScenarioFileUnreadable {
  constructor(path: string) {
    super(path, `scenario file not found: ${path}`);
    this.name = 'ScenarioFileNotFound';
  }
}

/** The scenario's text; `path` as the user gave it (it is named so in the error). */
export async function readScenarioFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ScenarioFileNotFound(path);
    if (code === 'EISDIR') throw new ScenarioFileUnreadable(path, `scenario file is a folder, not a file: ${path}`);
    if (code === 'EACCES' || code === 'EPERM') throw new ScenarioFileUnreadable(path, `scenario file cannot be read (permission denied): ${path}`);
    throw err;
  }
}
