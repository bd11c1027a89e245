import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { GoTool } from './goTool.ts';

// The project being set up: its files (read, and written unless this is a dry run) and the list of
// what each step changed, found already right, or leaves to the user.

export interface SetupChange {
  /** The file (or folder), relative to the project, with `/`. */
  file: string;
  status: 'changed' | 'unchanged' | 'manual';
  text: string;
}

/** Folders whose Go files are not the project's own: tools, vendored or generated code, our copy. */
const NOT_PROJECT_DIRS = new Set(['vendor', 'node_modules', 'bin', 'testdata', 'controller-lab']);

export class Project {
  readonly dir: string;
  readonly dryRun: boolean;
  readonly go: GoTool;
  readonly changes: SetupChange[] = [];
  /** Go files written, for gofmt. */
  readonly editedGoFiles: string[] = [];
  private goFileList: string[] | undefined;

  constructor(dir: string, go: GoTool, dryRun: boolean) {
    this.dir = dir;
    this.go = go;
    this.dryRun = dryRun;
  }

  path(file: string): string {
    return join(this.dir, file);
  }

  exists(file: string): boolean {
    return existsSync(this.path(file));
  }

  isDir(file: string): boolean {
    try {
      return statSync(this.path(file)).isDirectory();
    } catch {
      return false;
    }
  }

  read(file: string): string | undefined {
    try {
      return readFileSync(this.path(file), 'utf8');
    } catch {
      return undefined;
    }
  }

  /** The names in a folder of the project, sorted. */
  listDir(dir: string): string[] {
    try {
      return readdirSync(this.path(dir)).sort();
    } catch {
      return [];
    }
  }

  /** Writes the file (not in a dry run) and records the change. */
  write(file: string, text: string, change: string): void {
    if (!this.dryRun) {
      mkdirSync(dirname(this.path(file)), { recursive: true });
      writeFileSync(this.path(file), text);
      if (file.endsWith('.go')) this.editedGoFiles.push(file);
    }
    this.changed(file, change);
  }

  changed(file: string, text: string): void {
    this.changes.push({ file, status: 'changed', text });
  }

  unchanged(file: string, why: string): void {
    this.changes.push({ file, status: 'unchanged', text: why });
  }

  manual(file: string, what: string): void {
    this.changes.push({ file, status: 'manual', text: what });
  }

  /** The project's .go files (relative, sorted), outside nested modules, hidden folders and NOT_PROJECT_DIRS. */
  goFiles(): string[] {
    if (this.goFileList) return this.goFileList;
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name.startsWith('.') || entry.name.startsWith('_') || NOT_PROJECT_DIRS.has(entry.name)) continue;
          if (existsSync(join(path, 'go.mod'))) continue;
          walk(path);
        } else if (entry.isFile() && entry.name.endsWith('.go')) {
          files.push(relative(this.dir, path).split(sep).join('/'));
        }
      }
    };
    walk(this.dir);
    this.goFileList = files.sort();
    return this.goFileList;
  }
}
