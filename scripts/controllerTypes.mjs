// Generates types/controller-lab.d.ts — the ambient `controller-lab` module users' editors see —
// from the API controllers are written against (src/controllerProtocol/api.ts) and the object types it uses
// (src/shared/k8s.ts), so the two cannot drift. Declarations marked `@internal` stay out.
//
//   node scripts/controllerTypes.mjs           writes the file (the build does this)
//   node scripts/controllerTypes.mjs --check   fails when the file is not what the sources give
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CONTROLLER_TYPES_PATH = join(ROOT, 'types/controller-lab.d.ts');
const API = join(ROOT, 'src/controllerProtocol/api.ts');
/** The object types the API names, taken from the shared model. */
const OBJECT_TYPES = ['ObjectMeta', 'OwnerReference', 'KubeObject'];

const HEADER = `// Types for \`import { defineController, TerminalError } from 'controller-lab'\`.
// Controller Lab runs your controller with this module provided; this file only gives your editor
// the types. A project that installed the npm package has them already (its package.json names this
// file); otherwise include it in your tsconfig ("include": [..., "types/controller-lab.d.ts"]), or run
// "Controller Lab: Add Controller Types to Workspace", which does that for you.
// Generated from Controller Lab's src/controllerProtocol/api.ts by \`node scripts/controllerTypes.mjs\`: do not edit.
`;

/** The declaration files TypeScript emits for api.ts and what it imports, by file name. */
function emitDeclarations() {
  const options = {
    declaration: true,
    emitDeclarationOnly: true,
    stripInternal: true,
    removeComments: false,
    allowImportingTsExtensions: true,
    rewriteRelativeImportExtensions: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    types: ['node'],
  };
  const out = new Map();
  const program = ts.createProgram([API], options);
  const result = program.emit(undefined, (name, text) => out.set(resolve(name), text), undefined, true);
  const problems = ts.getPreEmitDiagnostics(program).concat(result.diagnostics);
  if (problems.length > 0) throw new Error(ts.formatDiagnostics(problems, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' }));
  const pick = (suffix) => [...out.entries()].find(([name]) => name.endsWith(suffix))?.[1] ?? '';
  return { api: pick('controllerProtocol/api.d.ts'), k8s: pick('shared/k8s.d.ts') };
}

/** Top-level statements of a declaration file, as text with their comments, minus imports and `export {}`. */
function statements(text, keep = () => true) {
  const file = ts.createSourceFile('x.d.ts', text, ts.ScriptTarget.ES2022, true);
  return file.statements
    .filter((s) => !ts.isImportDeclaration(s) && !ts.isExportDeclaration(s) && keep(s))
    .map((s) => text.slice(s.getFullStart(), s.getEnd()).replace(/^\s*\n/, '').trimEnd());
}

/** Inside `declare module` everything is ambient already: `export declare x` becomes `export x`. */
function inModule(statement) {
  return statement
    .replace(/^(\s*(?:\/\*\*[\s\S]*?\*\/\s*)?)export declare /, '$1export ')
    .split('\n')
    // TypeScript prints four spaces per level; this file uses two, one level in.
    .map((line) => (line === '' ? line : `  ${line.replace(/^(?: {4})+/, (m) => ' '.repeat(m.length / 2))}`))
    .join('\n');
}

export function generateControllerTypes() {
  const { api, k8s } = emitDeclarations();
  const objectTypes = statements(k8s, (s) => ts.isInterfaceDeclaration(s) && OBJECT_TYPES.includes(s.name.text));
  const body = [...objectTypes, ...statements(api)].map(inModule).join('\n\n');
  return `${HEADER}\ndeclare module 'controller-lab' {\n${body}\n}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = generateControllerTypes();
  if (process.argv.includes('--check')) {
    if (readFileSync(CONTROLLER_TYPES_PATH, 'utf8') !== text) {
      console.error('types/controller-lab.d.ts is not what src/controllerProtocol/api.ts gives: run `node scripts/controllerTypes.mjs`');
      process.exit(1);
    }
  } else writeFileSync(CONTROLLER_TYPES_PATH, text);
}
