import type { WriterIdentity } from '../apply/forResource.ts';
import type { DecodingContext } from '../vocabulary/fieldValidation.ts';
import type { RequestContext } from './types.ts';

// What a write reads of the context its request hands the store, as kube-apiserver's storage reads
// its ctx: every write method takes it as its last argument, and the work a write causes is handed
// a context of its own.

/** The context of a write made in process with none of its own (the default namespaces). */
export const IN_PROCESS: RequestContext = Object.freeze({});

/** How the write decodes what it stores: the request's field validation (Warn when not given) and where its warnings go. */
export function decodingOf(ctx: RequestContext): DecodingContext {
  return { mode: ctx.fieldValidation ?? 'Warn', warnings: ctx.warnings };
}

/** How the write decodes the request's own body: as decodingOf, and the fields its JSON named twice. */
export function bodyDecodingOf(ctx: RequestContext): DecodingContext {
  const decoding: DecodingContext = { ...decodingOf(ctx), duplicates: ctx.duplicateFields ?? [] };
  if (ctx.fieldOrder) decoding.fieldOrder = ctx.fieldOrder;
  return decoding;
}

/** Who managedFields record the write under: its ?fieldManager, else its User-Agent's prefix. */
export function writerOf(ctx: RequestContext): WriterIdentity {
  return { fieldManager: ctx.fieldManager, userAgent: ctx.client?.userAgent };
}

/**
 * The context of the work the API server's own controllers do after a write (garbage collection,
 * namespace cleanup): they write as kube-controller-manager and pass no admission, while what
 * they commit is still reported as the client's whose write caused it.
 */
export function followUpContext(cause: RequestContext): RequestContext {
  const first = cause.cause ?? cause;
  return cause.client ? { client: cause.client, fieldManager: CONTROLLER_MANAGER, cause: first } : { fieldManager: CONTROLLER_MANAGER, cause: first };
}

/**
 * The context of what a delete does to other objects within its own call (orphaning dependents,
 * deleting them first, a CRD's objects): the request's own, marked as caused by it, so write
 * records tell the object the call named from the objects it took along.
 */
export function cascadeContext(cause: RequestContext): RequestContext {
  return { ...cause, cause: cause.cause ?? cause };
}

const CONTROLLER_MANAGER = 'kube-controller-manager';
