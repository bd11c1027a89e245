// VS Code's JSON with comments (launch.json): read by dropping comments and trailing commas, and
// edited as text, so the user's comments, order and layout stay as they were.

interface Token {
  kind: 'string' | 'punct' | 'value';
  start: number;
  end: number;
}

/** Strings, punctuation and bare values; comments and whitespace are not tokens. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) i++;
    else if (c === '/' && text[i + 1] === '/') i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) < 0 ? text.length : text.indexOf('*/', i + 2) + 2;
    else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out.push({ kind: 'string', start: i, end: j + 1 });
      i = j + 1;
    } else if ('{}[]:,'.includes(c)) out.push({ kind: 'punct', start: i, end: ++i });
    else {
      let j = i;
      while (j < text.length && !/[\s{}[\]:,"/]/.test(text[j]!)) j++;
      out.push({ kind: 'value', start: i, end: Math.max(j, i + 1) });
      i = Math.max(j, i + 1);
    }
  }
  return out;
}

/** The value of a JSONC text (throws a SyntaxError as JSON.parse does). */
export function parseJsonc(text: string): unknown {
  const toks = tokens(text);
  const kept = toks.filter((t, k) => !(t.kind === 'punct' && text[t.start] === ',' && /^[}\]]$/.test(text[toks[k + 1]?.start ?? -1] ?? '')));
  return JSON.parse(kept.map((t) => text.slice(t.start, t.end)).join(''));
}

/**
 * Appends `items` (JSON texts, each indented by the caller for its place) to the array that is the
 * root object's `key`, after what is in it (a comma added after its last item when needed); adds the
 * key when the root has none. Answers undefined when the root is not an object.
 */
export function appendToRootArray(text: string, key: string, items: string[], indent: string): string | undefined {
  const toks = tokens(text);
  if (toks[0] === undefined || text[toks[0].start] !== '{') return undefined;
  let depth = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!;
    const c = text[t.start]!;
    if (t.kind === 'punct' && (c === '{' || c === '[')) depth++;
    else if (t.kind === 'punct' && (c === '}' || c === ']')) depth--;
    else if (depth === 1 && t.kind === 'string' && text.slice(t.start, t.end) === JSON.stringify(key) && text[toks[k + 1]?.start ?? -1] === ':' && text[toks[k + 2]?.start ?? -1] === '[') {
      const open = toks[k + 2]!;
      const close = matching(toks, text, k + 2);
      if (close < 0) return undefined;
      const closeTok = toks[close]!;
      const last = toks[close - 1]!;
      const comma = last !== open && text[last.start] !== ',' ? ',' : '';
      const block = items.join(',\n');
      // Before the `]`'s own line, keeping what follows the last item (a comment) where it is.
      const closeLine = text.lastIndexOf('\n', closeTok.start - 1) + 1;
      if (closeLine > last.end && /^\s*$/.test(text.slice(closeLine, closeTok.start))) {
        return `${text.slice(0, last.end)}${comma}${text.slice(last.end, closeLine)}${block}\n${text.slice(closeLine)}`;
      }
      return `${text.slice(0, last.end)}${comma}${text.slice(last.end, closeTok.start)}\n${block}\n${lineIndent(text, closeTok.start)}${text.slice(closeTok.start)}`;
    }
  }
  // No such key: add it as the root's last member.
  const rootClose = matching(toks, text, 0);
  if (rootClose < 0) return undefined;
  const before = toks[rootClose - 1]!;
  const needsComma = before !== toks[0] && text[before.start] !== ',';
  const member = `${indent}${JSON.stringify(key)}: [${items.map((item) => `\n${item}`).join(',')}\n${indent}]`;
  return `${text.slice(0, before.end)}${needsComma ? ',' : ''}\n${member}\n${text.slice(toks[rootClose]!.start)}`;
}

function matching(toks: Token[], text: string, open: number): number {
  let depth = 0;
  for (let k = open; k < toks.length; k++) {
    const c = text[toks[k]!.start];
    if (toks[k]!.kind !== 'punct') continue;
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return k;
    }
  }
  return -1;
}

/** The whitespace that starts `index`'s line. */
function lineIndent(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}
