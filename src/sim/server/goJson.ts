// What Go's encoding/json says about a body, for the answers kube-apiserver words with it: the
// first syntax error as its scanner reports it (`invalid character '}' looking for beginning of
// object key string`), and — for strict field validation — the fields a JSON object names twice.

import type { FieldOrder } from '../vocabulary/fieldValidation.ts';

/** Go's quoteChar: how its scanner names the byte it stopped at. */
function quoteChar(code: number): string {
  if (code === 0x27) return "'\\''";
  if (code === 0x22) return '\'"\'';
  const escapes: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  if (escapes[code]) return `'${escapes[code]}'`;
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  if (code >= 0x80 && code <= 0xa0) return `'\\u${code.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(code)}'`;
}

class SyntaxProblem extends Error {}

/** Walks JSON bytes as Go's scanner does, throwing at the first byte it would refuse. */
class Scanner {
  private i = 0;
  private readonly b: Buffer;

  constructor(b: Buffer) {
    this.b = b;
  }

  private fail(code: number | undefined, context: string): never {
    if (code === undefined) throw new SyntaxProblem('unexpected end of JSON input');
    throw new SyntaxProblem(`invalid character ${quoteChar(code)} ${context}`);
  }

  private skipSpace(): void {
    while (this.i < this.b.length && (this.b[this.i] === 0x20 || this.b[this.i] === 0x09 || this.b[this.i] === 0x0a || this.b[this.i] === 0x0d)) this.i++;
  }

  document(): void {
    this.skipSpace();
    this.value();
    this.skipSpace();
    if (this.i < this.b.length) this.fail(this.b[this.i], 'after top-level value');
  }

  private value(): void {
    this.skipSpace();
    const c = this.b[this.i];
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x22) return this.string();
    if (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39)) return this.number();
    if (c === 0x74) return this.literal('true');
    if (c === 0x66) return this.literal('false');
    if (c === 0x6e) return this.literal('null');
    this.fail(c, 'looking for beginning of value');
  }

  private object(): void {
    this.i++;
    this.skipSpace();
    if (this.b[this.i] === 0x7d) {
      this.i++;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.b[this.i] !== 0x22) this.fail(this.b[this.i], 'looking for beginning of object key string');
      this.string();
      this.skipSpace();
      if (this.b[this.i] !== 0x3a) this.fail(this.b[this.i], 'after object key');
      this.i++;
      this.value();
      this.skipSpace();
      const c = this.b[this.i];
      if (c === 0x2c) {
        this.i++;
        continue;
      }
      if (c === 0x7d) {
        this.i++;
        return;
      }
      this.fail(c, 'after object key:value pair');
    }
  }

  private array(): void {
    this.i++;
    this.skipSpace();
    if (this.b[this.i] === 0x5d) {
      this.i++;
      return;
    }
    for (;;) {
      this.value();
      this.skipSpace();
      const c = this.b[this.i];
      if (c === 0x2c) {
        this.i++;
        continue;
      }
      if (c === 0x5d) {
        this.i++;
        return;
      }
      this.fail(c, 'after array element');
    }
  }

  private string(): void {
    this.i++;
    for (;;) {
      const c = this.b[this.i];
      if (c === undefined) this.fail(c, '');
      this.i++;
      if (c === 0x22) return;
      if (c < 0x20) this.fail(c, 'in string literal');
      if (c !== 0x5c) continue;
      const e = this.b[this.i];
      this.i++;
      if (e === 0x75) {
        for (let k = 0; k < 4; k++) {
          const h = this.b[this.i];
          if (h === undefined || !/[0-9a-fA-F]/.test(String.fromCharCode(h))) this.fail(h, 'in \\u hexadecimal character escape');
          this.i++;
        }
      } else if (e === undefined || !'"\\/bfnrt'.includes(String.fromCharCode(e))) {
        this.fail(e, 'in string escape code');
      }
    }
  }

  private digits(): number {
    const start = this.i;
    while (this.b[this.i] !== undefined && this.b[this.i]! >= 0x30 && this.b[this.i]! <= 0x39) this.i++;
    return this.i - start;
  }

  private number(): void {
    if (this.b[this.i] === 0x2d) {
      this.i++;
      const c = this.b[this.i];
      if (c === undefined || c < 0x30 || c > 0x39) this.fail(c, 'in numeric literal');
    }
    // A leading 0 ends the integer part: what follows is the next token's problem.
    if (this.b[this.i] === 0x30) this.i++;
    else this.digits();
    if (this.b[this.i] === 0x2e) {
      this.i++;
      if (this.digits() === 0) this.fail(this.b[this.i], 'after decimal point in numeric literal');
    }
    if (this.b[this.i] === 0x65 || this.b[this.i] === 0x45) {
      this.i++;
      if (this.b[this.i] === 0x2b || this.b[this.i] === 0x2d) this.i++;
      if (this.digits() === 0) this.fail(this.b[this.i], 'in exponent of numeric literal');
    }
  }

  private literal(word: string): void {
    for (let k = 0; k < word.length; k++) {
      const c = this.b[this.i];
      if (c !== word.charCodeAt(k)) this.fail(c, `in literal ${word} (expecting '${word[k]}')`);
      this.i++;
    }
  }
}

/** Go's error for bytes JSON.parse refused (undefined if Go would accept them). */
export function goJsonSyntaxError(body: Buffer): string | undefined {
  try {
    new Scanner(body).document();
    return undefined;
  } catch (e) {
    if (e instanceof SyntaxProblem) return e.message;
    throw e;
  }
}

/** apimachinery's summary of a body in an error: the start of an object, other bodies in hex. */
export function summarizeBody(body: Buffer): string {
  if (body.length === 0) return '<empty>';
  const head = body.subarray(0, 30);
  const more = body.length > 30 ? ' ...' : '';
  return body[0] === 0x7b ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}

/**
 * The fields a valid JSON document names twice in one object, as strict decoding reports them
 * (`spec.replicas`, `spec.template.spec.containers[0].image`), in document order.
 */
export function duplicateFields(value: unknown, text: string): string[] {
  // Cheap exit: a document whose every key is distinct has as many keys as its parse keeps.
  if (countKeys(value) === countKeyTokens(text)) return [];
  const found: string[] = [];
  walkKeys(text, (path, _at, again) => {
    if (again) found.push(path);
  });
  return found;
}

/** Where a JSON text names each field, first and again (by offset), as Go's decoder meets them. */
export function fieldOrderOf(text: string): FieldOrder {
  const first = new Map<string, number>();
  const again = new Map<string, number>();
  walkKeys(text, (path, at, repeated) => {
    if (!repeated) first.set(path, at);
    else if (!again.has(path)) again.set(path, at);
  });
  return { firstNamed: (field) => first.get(field), namedAgain: (field) => again.get(field) };
}

function countKeys(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) n += countKeys(x);
    return n;
  }
  for (const k in v) n += 1 + countKeys((v as Record<string, unknown>)[k]);
  return n;
}

/** Object keys in the text: strings followed by a colon. */
function countKeyTokens(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 0x22) continue;
    i = endOfString(text, i);
    let j = i + 1;
    while (j < text.length && (text[j] === ' ' || text[j] === '\n' || text[j] === '\r' || text[j] === '\t')) j++;
    if (text[j] === ':') n++;
  }
  return n;
}

function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
  }
  return text.length;
}

/** Calls `onKey` for every object key in document order: its path, offset, and whether its object named it before. */
function walkKeys(text: string, onKey: (path: string, at: number, again: boolean) => void): void {
  // One frame per open object (the keys it has named) or list (the index of the current item).
  const frames: { keys?: Set<string>; index: number; path: string }[] = [];
  let pendingKey: string | undefined;
  const childPath = (): string => {
    const top = frames.at(-1);
    if (!top) return '';
    if (top.keys) return top.path === '' ? (pendingKey ?? '') : `${top.path}.${pendingKey ?? ''}`;
    return `${top.path}[${top.index}]`;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') {
      frames.push({ ...(c === '{' ? { keys: new Set<string>() } : {}), index: 0, path: childPath() });
      pendingKey = undefined;
    } else if (c === '}' || c === ']') {
      frames.pop();
    } else if (c === ',') {
      const top = frames.at(-1);
      if (top && !top.keys) top.index++;
    } else if (c === '"') {
      const end = endOfString(text, i);
      const top = frames.at(-1);
      let j = end + 1;
      while (j < text.length && (text[j] === ' ' || text[j] === '\n' || text[j] === '\r' || text[j] === '\t')) j++;
      if (top?.keys && text[j] === ':') {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        const path = top.path === '' ? key : `${top.path}.${key}`;
        onKey(path, i, top.keys.has(key));
        top.keys.add(key);
        pendingKey = key;
      }
      i = end;
    }
  }
}
