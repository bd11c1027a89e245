// Tables for benchmark output: aligned plain text for the terminal, markdown for the README.

export type Row = readonly string[];

function widths(header: Row, rows: readonly Row[]): number[] {
  return header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
}

/** Right-aligns every column but the first (numbers line up). */
export function textTable(header: Row, rows: readonly Row[]): string {
  const w = widths(header, rows);
  const line = (r: Row) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  return [line(header), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n');
}

export function markdownTable(header: Row, rows: readonly Row[]): string {
  const w = widths(header, rows);
  const line = (r: Row) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join(' | ')} |`;
  const rule = `|${w.map((n, i) => (i === 0 ? ` ${'-'.repeat(n)} ` : ` ${'-'.repeat(n - 1)}: `)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
