import { GoSource } from './goScanner.ts';

// Adding and removing one import of a Go file, as a person would: a line in the import block
// (beside a related import, so gofmt sorts it into that group), or an import declaration of its own.

interface ImportDecl {
  /** Where `import` starts and where the declaration ends (past its `)` or its path). */
  start: number;
  end: number;
  /** The `(` of a grouped declaration. */
  open?: number;
}

function importDecls(src: GoSource): ImportDecl[] {
  const decls: ImportDecl[] = [];
  for (const m of src.matches(/^import\b/m)) {
    let i = m.index + m[0].length;
    while (/\s/.test(src.text[i] ?? '')) i++;
    if (src.text[i] === '(') {
      const close = src.closing(i);
      if (close >= 0) decls.push({ start: m.index, end: close + 1, open: i });
    } else {
      decls.push({ start: m.index, end: src.lineEnd(i) - 1 });
    }
  }
  return decls;
}

/** The line of an import spec for `path`, with any name before it (`ctrl "sigs.k8s.io/controller-runtime"`). */
function specLine(path: string): RegExp {
  return new RegExp(`^[ \\t]*(?:[\\w.]+[ \\t]+)?"${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"[ \\t]*(?://.*)?$`, 'm');
}

export function hasImport(text: string, path: string): boolean {
  const src = new GoSource(text);
  return importDecls(src).some((d) => specLine(path).test(text.slice(d.start, d.end)));
}

/**
 * Adds `import "path"`: in the grouped declaration, after the first import line `near` matches (so it
 * lands in that group), else at the end of the group; without one, as a declaration of its own.
 */
export function addImport(text: string, path: string, near?: RegExp): string {
  if (hasImport(text, path)) return text;
  const src = new GoSource(text);
  const decls = importDecls(src);
  const grouped = decls.find((d) => d.open !== undefined);
  if (grouped) {
    const body = text.slice(grouped.open! + 1, grouped.end - 1);
    const lines = body.split('\n');
    const at = near ? lines.findIndex((l) => near.test(l) && /"/.test(l)) : -1;
    if (at >= 0) {
      const indent = /^\s*/.exec(lines[at]!)![0];
      lines.splice(at + 1, 0, `${indent}"${path}"`);
      return text.slice(0, grouped.open! + 1) + lines.join('\n') + text.slice(grouped.end - 1);
    }
    const closeLine = src.lineStart(grouped.end - 1);
    return `${text.slice(0, closeLine)}\t"${path}"\n${text.slice(closeLine)}`;
  }
  const last = decls.at(-1);
  if (last) return `${text.slice(0, last.end)}\nimport "${path}"${text.slice(last.end)}`;
  const pkg = src.find(/^package\s+\w+/m);
  const after = pkg ? src.lineEnd(pkg.index) : 0;
  return `${text.slice(0, after)}\nimport "${path}"\n${text.slice(after)}`;
}

/** Removes the import of `path` (its line in a group, or its whole declaration). */
export function removeImport(text: string, path: string): string {
  const src = new GoSource(text);
  for (const d of importDecls(src)) {
    const decl = text.slice(d.start, d.end);
    const m = specLine(path).exec(decl);
    if (!m) continue;
    if (d.open === undefined) return text.slice(0, d.start) + text.slice(src.lineEnd(d.start));
    const lineStart = d.start + m.index;
    return text.slice(0, lineStart) + text.slice(src.lineEnd(lineStart));
  }
  return text;
}
