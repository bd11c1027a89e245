// Go's encoding/json scanner, for the answers kube-apiserver words with its syntax errors: the first
// byte it refuses, named as it names it (`invalid character '}' looking for beginning of object key
// string`, `unexpected end of JSON input`). Request bodies, continue tokens and a Secret's
// .dockerconfigjson are all read by it.

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
