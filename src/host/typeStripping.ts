import * as nodeModule from 'node:module';
import { ControllerLoadError } from '../controllerProtocol/index.ts';

// Without esbuild, TypeScript runs through Node's own type stripping. Strip mode replaces types with
// spaces, so every line and column stays where it is in the user's file: stack traces and line
// breakpoints land in their .ts with no source map. Syntax that would need code generated (enum,
// namespace, parameter properties) cannot be stripped; it is reported as compilers report errors.

type StripTypeScriptTypes = (code: string, options?: { mode?: 'strip' }) => string;

/** What to write instead, for the constructs users meet most (Node's message names the construct). */
const REWRITES: [RegExp, string][] = [
  [/\benum\b/, 'use a union of string literals or an `as const` object'],
  [/\bnamespace\b/, 'use a module (a file) instead'],
  [/\bparameter propert/, 'declare the field and assign it in the constructor'],
  [/\bimport equals\b/, "use `import … from '…'`"],
];

/** The user's TypeScript with its types erased, or a ControllerLoadError `file:line:col: error: …`. */
export function stripTypes(source: string, file: string): string {
  const strip = (nodeModule as { stripTypeScriptTypes?: StripTypeScriptTypes }).stripTypeScriptTypes;
  if (!strip) throw new ControllerLoadError(`${file}: loading TypeScript without esbuild needs Node >= 22.13 (type stripping); this is Node ${process.versions.node}`);
  try {
    return strip(source, { mode: 'strip' });
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    const at = locate((err as Error).stack ?? '', source);
    const rewrite = REWRITES.find(([pattern]) => pattern.test(message))?.[1];
    const advice = `without esbuild, Controller Lab loads TypeScript by erasing its types only${rewrite ? `: ${rewrite}` : ''}`;
    throw new ControllerLoadError(`${file}${at ? `:${at.line}:${at.column}` : ''}: error: ${message} (${advice})`);
  }
}

/**
 * Where the error is, from the snippet Node puts in front of the stack: `<url>:<line>` then the
 * source lines, the offending one marked with `^^^` below it or `>` before it (tabs expanded).
 * The column is found by looking the marked text up in the real line.
 */
export function locate(stack: string, source: string): { line: number; column: number } | undefined {
  const lines = stack.split('\n');
  const line = Number(/^[^\s]*:(\d+)$/.exec(lines[0] ?? '')?.[1]);
  const text = source.split(/\r?\n/)[line - 1];
  if (!line || text === undefined) return undefined;
  const caret = lines.findIndex((l) => /^\s*\^+\s*$/.test(l));
  const carets = lines[caret] ?? '';
  const arrow = lines.find((l) => /^\s*> /.test(l));
  const marked = caret > 0 ? (lines[caret - 1] ?? '').slice(carets.indexOf('^'), carets.lastIndexOf('^') + 1) : arrow?.replace(/^\s*> /, '');
  const found = marked?.trim() ? text.indexOf(marked.trim()) : -1;
  const column = found >= 0 ? found + 1 : text.search(/\S|$/) + 1;
  return { line, column };
}
