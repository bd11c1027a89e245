import { ApiError } from '../../shared/apiError.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';

// JSON patch (RFC 6902): add, remove, replace, move, copy, test, with JSON pointers (RFC 6901).
// A failing operation (a missing path, a failed test, an unknown op) rejects the whole patch with
// the answer kube-apiserver gives for any of them: a 422 whose message is the generic "the server
// rejected our request due to an error in our request" (the operation's own error is not passed on).

export interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

const REJECTED = 'the server rejected our request due to an error in our request';

// kube-apiserver's bounds on one JSON patch (without them, 40 copies of a value into itself make
// 2^40 nodes): at most 10000 operations, and copies adding at most 3 MiB (JSONPatchMaxCopyBytes).
export const MAX_JSON_PATCH_OPERATIONS = 10_000;
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

/** `why` is what went wrong, kept on the error for in-process callers; the answer is the server's generic one. */
function fail(why: string): ApiError {
  const error = new ApiError(422, REJECTED, 'Invalid', { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: REJECTED, reason: 'Invalid', details: {}, code: 422 });
  error.cause = why;
  return error;
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw fail(`invalid JSON pointer: "${pointer}"`);
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

/** The parent container and the last token of `path`. */
function locate(doc: unknown, tokens: string[], path: string): { parent: Container; key: string } {
  let cur: unknown = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isContainer(cur)) cur = (cur as Record<string, unknown>)[t];
    else cur = undefined;
    if (!isContainer(cur)) throw fail(`doc is missing path: "${path}"`);
  }
  if (!isContainer(cur)) throw fail(`doc is missing path: "${path}"`);
  return { parent: cur, key: tokens[tokens.length - 1] ?? '' };
}

function arrayIndex(arr: unknown[], key: string, path: string, forInsert: boolean): number {
  if (forInsert && key === '-') return arr.length;
  const i = Number(key);
  if (!/^\d+$/.test(key) || i > arr.length || (!forInsert && i >= arr.length)) throw fail(`Unable to access invalid index: ${key} (path "${path}")`);
  return i;
}

function get(doc: unknown, path: string): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return doc;
  const { parent, key } = locate(doc, tokens, path);
  if (Array.isArray(parent)) return parent[arrayIndex(parent, key, path, false)];
  if (!(key in parent)) throw fail(`doc is missing key: "${path}"`);
  return parent[key];
}

function add(doc: unknown, path: string, value: unknown): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const { parent, key } = locate(doc, tokens, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, path, true), 0, value);
  else parent[key] = value;
  return doc;
}

function remove(doc: unknown, path: string): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) throw fail('cannot remove the whole document');
  const { parent, key } = locate(doc, tokens, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, path, false), 1);
  else {
    if (!(key in parent)) throw fail(`Unable to remove nonexistent key: ${key}: missing value (path "${path}")`);
    delete parent[key];
  }
  return doc;
}

/**
 * The json-patch library kube-apiserver v1.28 uses (evanphx/json-patch v4) replaces a missing key of
 * an object as if it were there, so such a replace adds it; a missing array index still fails.
 */
function replace(doc: unknown, path: string, value: unknown): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const { parent, key } = locate(doc, tokens, path);
  if (Array.isArray(parent)) parent[arrayIndex(parent, key, path, false)] = value;
  else parent[key] = value;
  return doc;
}

/** Applies the operations to a copy of `target`. Throws ApiError 422 when one fails. */
export function applyJsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw new ApiError(400, 'json patch must be an array of operations', 'BadRequest');
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    const message = `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`;
    throw new ApiError(413, message, 'RequestEntityTooLarge', { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, reason: 'RequestEntityTooLarge', code: 413 });
  }
  let copied = 0;
  const copyOf = (value: unknown): unknown => {
    // Measured before it is made: the size of what the copy adds, as Go's library counts it.
    copied += value === undefined ? 0 : JSON.stringify(value).length;
    if (copied > MAX_JSON_PATCH_COPY_BYTES) throw fail(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}`);
    return structuredClone(value);
  };
  let doc = structuredClone(target);
  for (const raw of ops as JsonPatchOp[]) {
    if (typeof raw !== 'object' || raw === null || typeof raw.path !== 'string') throw fail('invalid JSON patch operation');
    switch (raw.op) {
      case 'add': doc = add(doc, raw.path, structuredClone(raw.value)); break;
      case 'remove': doc = remove(doc, raw.path); break;
      case 'replace': doc = replace(doc, raw.path, structuredClone(raw.value)); break;
      case 'move': {
        const v = get(doc, raw.from ?? '');
        doc = add(remove(doc, raw.from ?? ''), raw.path, v);
        break;
      }
      case 'copy': doc = add(doc, raw.path, copyOf(get(doc, raw.from ?? ''))); break;
      case 'test':
        if (!jsonEqual(get(doc, raw.path), raw.value)) throw fail(`testing value ${raw.path} failed: test failed`);
        break;
      default: throw fail(`Unexpected kind: ${String((raw as { op?: unknown }).op)}`);
    }
  }
  return doc;
}
