import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph } from './importGraph.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

test('no source file imports, directly or through others, a file that imports it back', () => {
  const cycles = importCycles(importGraph(repo, ['src/**/*.ts', 'webview/**/*.ts']));
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.map((c) => '  ' + c.join(' ↔ ')).join('\n')}`);
});

test('the cycle check finds a cycle through a type-only import and names its files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-cycles-'));
  try {
    const write = (file: string, text: string): void => {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    };
    write('src/a.ts', "import { b } from './inner/b.ts';\nexport const a = b;\n");
    write('src/inner/b.ts', "import type { C } from '../c.ts';\nexport const b: C | 1 = 1;\n");
    write('src/c.ts', "import { a } from './a.ts';\nexport type C = typeof a;\n");
    write('src/free.ts', "import { a } from './a.ts';\nexport const free = a;\n");
    assert.deepEqual(importCycles(importGraph(dir, ['src/**/*.ts'])), [['src/a.ts', 'src/c.ts', 'src/inner/b.ts']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
