// Request bodies: read with the real apiserver's 3 MiB cap (413 past it), then decoded as JSON or
// YAML; anything undecodable, or nested deeper than MAX_NESTING_DEPTH, is a 400 BadRequest Status,
// never an exception that escapes.
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import type { ApiError } from '../../shared/apiError.ts';
import { jsonTextTooDeep, valueTooDeep } from '../store/nestingDepth.ts';
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

/** What the body is decoded into: names the kind in kube-apiserver's message for an undecodable object. */
export interface DecodeTarget {
  kind: string;
}

/**
 * kube-apiserver's answer to a body past the decoder's depth limit: for an object it creates or
 * updates, "the object provided is unrecognized (must be of type Kind): couldn't get version/kind;
 * json parse error: invalid character '{' exceeded max depth ({"apiVersion":… ...)".
 */
function tooDeep(char: '{' | '[', text: string, target: DecodeTarget | undefined): ApiError {
  const cause = `invalid character '${char}' exceeded max depth`;
  if (!target) return badRequest(`the body of the request could not be decoded as JSON: ${cause}`);
  const summary = text.length > 30 ? `${text.slice(0, 30)} ...` : text;
  return badRequest(`the object provided is unrecognized (must be of type ${target.kind}): couldn't get version/kind; json parse error: ${cause} (${summary})`);
}

/** Decodes a body as JSON (fast path), YAML or Kubernetes protobuf. Empty → 400. */
export function decodeBody(body: Buffer, format: 'json' | 'yaml' | 'protobuf', target?: DecodeTarget): unknown {
  if (format === 'protobuf') {
    if (body.length === 0) throw badRequest('the body of the request is empty');
    return decodeProtobuf(body);
  }
  const text = body.toString('utf8');
  if (text.trim() === '') throw badRequest('the body of the request is empty');
  // Before parsing: YAML flow collections nest with the same brackets, and the YAML parser is both
  // recursive and slow on them (seconds for 100k levels), so the scan protects it too.
  const deepAt = jsonTextTooDeep(text);
  if (deepAt) throw tooDeep(deepAt, text, target);
  if (format === 'json') {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw badRequest(`the body of the request could not be decoded as JSON: ${(err as Error).message}`);
    }
  }
  let value: unknown;
  try {
    value = parseYaml(text, { uniqueKeys: true, prettyErrors: false });
  } catch (err) {
    // Block nesting (by indentation) that exhausts the parser's stack is past the limit too.
    if (err instanceof RangeError || /call stack/.test((err as Error).message)) throw tooDeep('{', text, target);
    throw badRequest(`the body of the request could not be decoded as YAML: ${(err as Error).message}`);
  }
  if (valueTooDeep(value)) throw tooDeep('{', text, target);
  return value;
}

/** A decoded body that must be a single JSON object (create, update). */
export function decodeObjectBody(body: Buffer, format: 'json' | 'yaml' | 'protobuf', target?: DecodeTarget): Record<string, unknown> {
  const value = decodeBody(body, format, target);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('the body of the request must be a JSON object');
  }
  return value as Record<string, unknown>;
}
