import type { DiffLine } from '../shared/protocol/timeline.ts';

// A line diff (Myers' O(ND) greedy algorithm) for showing what changed between two versions of an
// object's YAML. Common prefix and suffix are trimmed first: versions usually differ in a few lines
// (resourceVersion, a label, a status field), so the search runs over a small middle.

const MAX_EDIT_DISTANCE = 1000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const out: DiffLine[] = a.slice(0, prefix).map((text) => ({ op: ' ', text }));
  out.push(...myers(midA, midB));
  for (const text of a.slice(a.length - suffix)) out.push({ op: ' ', text });
  return out;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function myers(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((text) => ({ op: '+', text }));
  if (m === 0) return a.map((text) => ({ op: '-', text }));
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number));
      let x = down ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, d, offset);
    }
  }
  // Too different to search: show it as a replacement.
  return [...a.map((text) => ({ op: '-' as const, text })), ...b.map((text) => ({ op: '+' as const, text }))];
}

function backtrack(trace: Int32Array[], a: string[], b: string[], dEnd: number, offset: number): DiffLine[] {
  const out: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK] as number;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) { out.push({ op: ' ', text: a[x - 1] as string }); x--; y--; }
    if (down) { out.push({ op: '+', text: b[y - 1] as string }); y--; }
    else { out.push({ op: '-', text: a[x - 1] as string }); x--; }
  }
  while (x > 0 && y > 0) { out.push({ op: ' ', text: a[x - 1] as string }); x--; y--; }
  return out.reverse();
}

/** Only the changed lines with `context` unchanged lines around each change; gaps become '…'. */
export function withContext(lines: DiffLine[], context = 3): DiffLine[] {
  const keep = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    if (l.op === ' ') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = 1;
  });
  const out: DiffLine[] = [];
  let skipped = false;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (skipped && out.length > 0) out.push({ op: ' ', text: '…' });
      skipped = false;
      out.push(l);
    } else skipped = true;
  });
  return out;
}
