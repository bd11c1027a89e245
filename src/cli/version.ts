import { readFileSync } from 'node:fs';

// The product's version is package.json's. It is read at run time, relative to this module: one
// folder up from dist/ (the bundle and the .vsix), two up from src/cli/ (a checkout).

export function productVersion(): string {
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'controller-lab' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not there: try the next place
    }
  }
  return 'unknown';
}
