// Enough of Go's lexical rules to edit a source file safely: which characters are code, and which
// are inside a comment, an interpreted string, a raw string or a rune, so a search for
// `NewManager(` or a count of braces is not fooled by one in a comment or a string.

export class GoSource {
  readonly text: string;
  /** 1 where the character is code, 0 inside a comment or a literal (its quotes included). */
  private readonly code: Uint8Array;

  constructor(text: string) {
    this.text = text;
    this.code = codeMask(text);
  }

  isCode(index: number): boolean {
    return this.code[index] === 1;
  }

  /** Every match of `pattern` (made global here) that starts in code. */
  matches(pattern: RegExp, from = 0): RegExpExecArray[] {
    const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    re.lastIndex = from;
    const out: RegExpExecArray[] = [];
    for (let m = re.exec(this.text); m; m = re.exec(this.text)) {
      if (this.isCode(m.index)) out.push(m);
      if (m[0] === '') re.lastIndex++;
    }
    return out;
  }

  /** The first match in code at or after `from`. */
  find(pattern: RegExp, from = 0): RegExpExecArray | undefined {
    return this.matches(pattern, from)[0];
  }

  /** The index of the `)`, `}` or `]` that closes the bracket at `open`, or -1. */
  closing(open: number): number {
    const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
    const stack: string[] = [];
    for (let i = open; i < this.text.length; i++) {
      if (!this.isCode(i)) continue;
      const c = this.text[i]!;
      if (pairs[c]) stack.push(pairs[c]);
      else if (c === ')' || c === '}' || c === ']') {
        if (stack.pop() !== c) return -1;
        if (stack.length === 0) return i;
      }
    }
    return -1;
  }

  /** The index just past the end of the line holding `index` (past its newline). */
  lineEnd(index: number): number {
    const nl = this.text.indexOf('\n', index);
    return nl < 0 ? this.text.length : nl + 1;
  }

  lineStart(index: number): number {
    return this.text.lastIndexOf('\n', index - 1) + 1;
  }

  /** 1-based line number of `index`. */
  lineOf(index: number): number {
    let line = 1;
    for (let i = this.text.indexOf('\n'); i >= 0 && i < index; i = this.text.indexOf('\n', i + 1)) line++;
    return line;
  }
}

function codeMask(text: string): Uint8Array {
  const mask = new Uint8Array(text.length);
  let i = 0;
  const skipTo = (end: number) => {
    i = end < 0 ? text.length : end;
  };
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') skipTo(text.indexOf('\n', i));
    else if (c === '/' && next === '*') skipTo(text.indexOf('*/', i + 2) < 0 ? -1 : text.indexOf('*/', i + 2) + 2);
    else if (c === '`') skipTo(text.indexOf('`', i + 1) < 0 ? -1 : text.indexOf('`', i + 1) + 1);
    else if (c === '"' || c === "'") skipTo(quotedEnd(text, i));
    else mask[i++] = 1;
  }
  return mask;
}

/** Just past the closing quote of the literal opening at `start` (a backslash escapes; a newline ends an unclosed one). */
function quotedEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === quote) return i + 1;
    else if (c === '\n') return i;
  }
  return text.length;
}
