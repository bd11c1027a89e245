// Request bodies: read with the real apiserver's 3 MiB cap (413 past it), then decoded as JSON or
// YAML; anything undecodable, or nested deeper than MAX_NESTING_DEPTH, is a 400 BadRequest Status,
// never an exception that escapes.
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import type { ApiError } from '../../shared/apiError.ts';
import { jsonTextTooDeep, MANAGED_FIELDS_LEVELS, MAX_NESTING_DEPTH, valueTooDeep } from '../store/nestingDepth.ts';
import { duplicateFields, fieldOrderOf, goJsonSyntaxError, summarizeBody } from './goJson.ts';
import type { FieldOrder } from '../vocabulary/fieldValidation.ts';
import { parseYamlKeepingLast } from './lenientYaml.ts';
import { parseJsonKeepingLiterals } from '../goTypes/numberLiterals.ts';
import { decodeKubernetesProtobuf, UnsupportedProtobufKind } from './protobuf/decodeK8sProtobuf.ts';
import { apiError, badRequest } from './status.ts';

/** kube-apiserver's MaxRequestBodyBytes. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

function tooLarge(limit: number) {
  return apiError(413, `Request entity too large: limit is ${limit}`, 'RequestEntityTooLarge');
}

/** kube-apiserver's --request-timeout (1m): a body still arriving then is answered 504. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

const requestTimeouts = new WeakMap<IncomingMessage, number>();

/** The server's request timeout for this request's body (set as each request arrives). */
export function setRequestTimeout(req: IncomingMessage, ms: number): void {
  requestTimeouts.set(req, ms);
}

/** As kube-apiserver's timeout filter words it; the connection closes after the answer. */
export function requestTimedOut(): ApiError {
  return apiError(504, 'Timeout: request did not complete within requested timeout - context deadline exceeded', 'Timeout');
}

/**
 * Reads the whole body; rejects with 413 as soon as it grows past `limit` (and stops buffering),
 * and with 504 when it has not arrived within the request timeout — a client trickling its body
 * must not hold its in-flight seat for ever.
 */
export function readBody(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    req.resume(); // drain so keep-alive survives when the client sends it anyway
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (err: unknown) => {
      failed = true;
      chunks.length = 0;
      clearTimeout(timer);
      reject(err);
    };
    const timeoutMs = requestTimeouts.get(req) ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const timer = setTimeout(() => fail(requestTimedOut()), timeoutMs);
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        fail(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    req.on('error', (err) => {
      if (!failed) fail(err);
    });
    req.on('close', () => clearTimeout(timer));
  });
}

/** The 415 for protobuf of a kind we have no schema for (CRDs, kinds the sim does not serve): say how to switch the client to JSON. */
function protobufKindUnsupported(typeName: string) {
  return apiError(
    415,
    `the simulated cluster decodes protobuf bodies only for the built-in kinds it serves and DeleteOptions, not ${typeName}: ` +
      'send JSON instead (set ContentType "application/json" in your rest.Config; controller-runtime uses protobuf for built-in kinds by default)',
    'UnsupportedMediaType',
  );
}

function decodeProtobuf(body: Buffer): unknown {
  try {
    return decodeKubernetesProtobuf(body);
  } catch (err) {
    if (err instanceof UnsupportedProtobufKind) throw protobufKindUnsupported(err.typeName);
    throw badRequest(`the body of the request could not be decoded as protobuf: ${(err as Error).message}`);
  }
}

/**
 * What the body is decoded into, for kube-apiserver's words when it cannot be: an object of a kind
 * (`the object provided is unrecognized (must be of type Kind): …`) or a patch of a type.
 */
export type DecodeTarget = { kind: string } | { patch: 'json' | 'merge' | 'strategic' | 'apply' };

/** Go's type error for a JSON document of the wrong shape where apimachinery reads apiVersion and kind first. */
const TYPE_META_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function jsonKindOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** kube-apiserver's 400 for a body that is not a JSON document of the expected shape, `cause` in Go's words. */
function undecodable(cause: string, body: Buffer, target: DecodeTarget | undefined): ApiError {
  if (!target) return badRequest(`the body of the request could not be decoded as JSON: ${cause}`);
  if ('kind' in target) return badRequest(`the object provided is unrecognized (must be of type ${target.kind}): couldn't get version/kind; json parse error: ${cause} (${summarizeBody(body)})`);
  // A strategic merge patch's decoding error is passed on bare; the others are "error decoding patch".
  return badRequest(target.patch === 'strategic' ? cause : `error decoding patch: ${cause}`);
}

/** The Go type a patch of this type is decoded into, for the type error of a patch of the wrong shape. */
const PATCH_GO_TYPE: Record<string, string> = { json: '[]handlers.jsonPatchOp', merge: 'map[string]interface {}', strategic: 'map[string]interface {}' };

/** Refuses a JSON document that is not what `target` must be (an object, a JSON patch's list). */
export function requireShape(value: unknown, body: Buffer, target: DecodeTarget): void {
  if ('kind' in target) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw undecodable(`json: cannot unmarshal ${jsonKindOf(value)} into Go value of type ${TYPE_META_STRUCT}`, body, target);
    return;
  }
  const wantArray = target.patch === 'json';
  const ok = wantArray ? Array.isArray(value) : typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!ok) throw undecodable(`json: cannot unmarshal ${jsonKindOf(value)} into Go value of type ${PATCH_GO_TYPE[target.patch] ?? 'map[string]interface {}'}`, body, target);
}

/**
 * kube-apiserver's answer to a body past the decoder's depth limit: for an object it creates or
 * updates, "the object provided is unrecognized (must be of type Kind): couldn't get version/kind;
 * json parse error: invalid character '{' exceeded max depth ({"apiVersion":… ...)".
 */
function tooDeep(char: '{' | '[', body: Buffer, target: DecodeTarget | undefined): ApiError {
  return undecodable(`invalid character '${char}' exceeded max depth`, body, target);
}

/** An apply patch, read as the API server first reads it (a key named twice: the last counts), and yaml.v2's complaints about repeated keys. */
export function decodeAppliedBody(body: Buffer): { patch: unknown; repeatedKeys: string[] } {
  const repeatedKeys: string[] = [];
  const patch = decodeBody(body, 'yaml', { patch: 'apply' }, repeatedKeys);
  return { patch, repeatedKeys };
}

/** Decodes a body as JSON (fast path), YAML or Kubernetes protobuf. Empty → 400. With `repeatedKeys`, YAML keys named twice are kept (the last) and reported there. */
export function decodeBody(body: Buffer, format: 'json' | 'yaml' | 'protobuf', target?: DecodeTarget, repeatedKeys?: string[]): unknown {
  if (format === 'protobuf') {
    if (body.length === 0) throw badRequest('the body of the request is empty');
    return decodeProtobuf(body);
  }
  const text = body.toString('utf8');
  if (text.trim() === '') throw badRequest('the body of the request is empty');
  // Before parsing: YAML flow collections nest with the same brackets, and the YAML parser is both
  // recursive and slow on them (seconds for 100k levels), so the scan protects it too. The text may
  // nest as deep as an object's managedFields do; the object itself is measured once parsed.
  const deepAt = jsonTextTooDeep(text, MAX_NESTING_DEPTH + MANAGED_FIELDS_LEVELS);
  if (deepAt) throw tooDeep(deepAt, body, target);
  let value: unknown;
  if (format === 'json') {
    try {
      value = parseJsonKeepingLiterals(text);
    } catch (err) {
      throw undecodable(goJsonSyntaxError(body) ?? (err as Error).message, body, target);
    }
  } else {
    value = parseYamlBody(text, body, target, repeatedKeys);
  }
  if (valueTooDeep(value)) throw tooDeep('{', body, target);
  return value;
}

function parseYamlBody(text: string, body: Buffer, target: DecodeTarget | undefined, repeatedKeys: string[] | undefined): unknown {
  try {
    // `<<: *anchor` merges the anchored map, as yaml.v2 (under sigs.k8s.io/yaml) does.
    if (!repeatedKeys) return parseYaml(text, { uniqueKeys: true, prettyErrors: false, merge: true });
    const parsed = parseYamlKeepingLast(text);
    repeatedKeys.push(...parsed.repeatedKeys);
    return parsed.value;
  } catch (err) {
    if (!(err instanceof RangeError || /call stack/.test((err as Error).message))) {
      throw badRequest(`the body of the request could not be decoded as YAML: ${(err as Error).message}`);
    }
    // The YAML parser recurses: JSON (what kubectl's server-side apply sends) nested some 850
    // levels exhausts its stack. Read as the JSON it is, it may nest to the limit.
    try {
      return JSON.parse(text);
    } catch {
      throw tooDeep('{', body, target);
    }
  }
}

/** A decoded body that must be a single JSON object (create, update, a subresource's POST). */
export function decodeObjectBody(body: Buffer, format: 'json' | 'yaml' | 'protobuf', target?: DecodeTarget): Record<string, unknown> {
  const value = decodeBody(body, format, target);
  if (target) requireShape(value, body, target);
  if (!target && (typeof value !== 'object' || value === null || Array.isArray(value))) throw badRequest('the body of the request must be a JSON object');
  return value as Record<string, unknown>;
}

/** The object a create or update writes, and the fields its JSON named twice. */
export interface WrittenBody {
  object: Record<string, unknown>;
  /** What strict field validation refuses and JSON.parse forgets (it keeps the last): `spec.replicas` named twice. */
  duplicateFields: string[];
  /** With duplicates: where the body names each field, to list them among unknown fields in the body's order. */
  fieldOrder?: FieldOrder;
  /** A YAML body's keys named twice in a map (the last kept), as yaml.v2 words each: `line 7: key "a" already set in map`. */
  repeatedYamlKeys?: string[];
}

export function decodeWrittenBody(body: Buffer, format: 'json' | 'yaml' | 'protobuf', target: DecodeTarget): WrittenBody {
  if (format === 'yaml') {
    // As kube-apiserver reads YAML: a key named twice keeps its last value, and is complained about
    // as its fieldValidation asks (see repeatedYamlKeysOf).
    const repeatedYamlKeys: string[] = [];
    const object = decodeBody(body, format, target, repeatedYamlKeys);
    requireShape(object, body, target);
    return { object: object as Record<string, unknown>, duplicateFields: [], repeatedYamlKeys };
  }
  const object = decodeObjectBody(body, format, target);
  if (format !== 'json') return { object, duplicateFields: [] };
  const text = body.toString('utf8');
  const duplicates = duplicateFields(object, text);
  return duplicates.length ? { object, duplicateFields: duplicates, fieldOrder: fieldOrderOf(text) } : { object, duplicateFields: [] };
}
