import { readFile } from 'node:fs/promises';

// Reading a scenario from its file: a path that names nothing is one line that says so
// (`scenario file not found: PATH`), where Node would say `ENOENT: no such file or directory, open …`.

export class ScenarioFileNotFound extends Error {
  readonly path: string;

  constructor(path: string) {
    super(`scenario file not found: ${path}`);
    this.name = 'ScenarioFileNotFound';
    this.path = path;
  }
}

/** The scenario's text; `path` as the user gave it (it is named so in the error). */
export async function readScenarioFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ScenarioFileNotFound(path);
    throw err;
  }
}
