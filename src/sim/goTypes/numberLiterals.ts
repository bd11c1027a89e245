// JSON.parse reads 1e3 and 2.0 as 1000 and 2, and 2^63 as the nearest float: encoding/json, decoding
// into a Go integer field, parses the literal itself and refuses all three ("cannot unmarshal number
// 1e3 into Go struct field … of type int64"). A body whose text may hold such a literal is parsed a
// second time, remembering each one by the object (or list) that holds it and its key there.

/** Integers JSON.parse keeps exactly, written the only way Go's ParseInt accepts. */
const PLAIN_INTEGER = /^-?\d{1,15}$/;
/** A digit followed by a fraction or exponent, or 16 digits in a row: the text may hold a literal worth keeping. */
const MAY_HOLD_LITERAL = /\d[.eE]|\d{16}/;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

/**
 * The same outside strings (an image tag `nginx:1.25` is no number), scanned by hand: a regular
 * expression that skips strings backtracks once per character and overflows V8's stack on a
 * string of ~10 MB.
 */
function holdsLiteral(text: string): boolean {
  if (!MAY_HOLD_LITERAL.test(text)) return false;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const inString = text.charCodeAt(i);
        if (inString === BACKSLASH) i++;
        else if (inString === QUOTE) break;
      }
      digits = 0;
    } else if (c >= DIGIT_0 && c <= DIGIT_9) {
      if (++digits >= 16) return true;
    } else {
      if (digits > 0 && (c === DOT || c === LOWER_E || c === UPPER_E)) return true;
      digits = 0;
    }
  }
  return false;
}

const literals = new WeakMap<object, Map<string, string>>();
/** Parsed documents that hold at least one kept literal. */
const holdingLiterals = new WeakSet<object>();

type Reviver = (this: object, key: string, value: unknown, context?: { source?: string }) => unknown;

/** JSON.parse, keeping the source of every number it cannot represent as written (see numberLiteral). */
export function parseJsonKeepingLiterals(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!holdsLiteral(text)) return value;
  const keep: Reviver = function (key, v, context) {
    const source = context?.source;
    if (typeof v === 'number' && source !== undefined && !PLAIN_INTEGER.test(source)) {
      let held = literals.get(this);
      if (!held) literals.set(this, (held = new Map()));
      held.set(key, source);
    }
    return v;
  };
  const kept: unknown = JSON.parse(text, keep as Parameters<typeof JSON.parse>[1]);
  if (typeof kept === 'object' && kept !== null) holdingLiterals.add(kept);
  return kept;
}

/**
 * Whether `document` (as parseJsonKeepingLiterals returned it, not a copy) may hold such a
 * literal: copies forget them, so its type is checked before anything copies it.
 */
export function mayHoldLiterals(document: object): boolean {
  return holdingLiterals.has(document);
}

/** How the number at `holder[key]` was written in the body, when JSON.parse could not keep it exactly. */
export function numberLiteral(holder: object, key: string | number): string | undefined {
  return literals.get(holder)?.get(String(key));
}

/** Remembers that the number at `holder[key]` was written as `source`: a patch's literal carried into the patched object. */
export function keepNumberLiteral(holder: object, key: string | number, source: string): void {
  let held = literals.get(holder);
  if (!held) literals.set(holder, (held = new Map()));
  held.set(String(key), source);
}
