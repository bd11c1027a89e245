// What Go's encoding/json says about a body, for the answers kube-apiserver words with it: the
// first syntax error as its scanner reports it (`invalid character '}' looking for beginning of
// object key string`), and — for strict field validation — the fields a JSON object names twice.

import type { FieldOrder } from '../vocabulary/fieldValidation.ts';

import { goJsonSyntaxError } from '../vocabulary/goJsonSyntax.ts';

export { goJsonSyntaxError };

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
