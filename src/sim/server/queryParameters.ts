// Query parameters of resource requests, validated the way kube-apiserver does (a malformed number or
// an unknown enum value is a 400 BadRequest, never silently ignored).
import type { DeleteOptions, ListRequest, RequestContext, WatchRequest } from '../store/types.ts';
import { invalid, unclassified, type Cause } from '../../shared/apiErrors.ts';
import { dryRunCauses, fieldManagerCauses, fieldValidationCauses, listOptionsCauses, throwIfInvalid } from './optionsValidation.ts';
import { badRequest } from './status.ts';
import { parseInt64 } from '../vocabulary/goStrconv.ts';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export class QueryParameters {
  private readonly params: URLSearchParams | undefined;

  constructor(query: string) {
    this.params = query === '' ? undefined : new URLSearchParams(query);
  }

  get(name: string): string | undefined {
    const v = this.params?.get(name);
    return v === null ? undefined : v;
  }

  has(name: string): boolean {
    return this.params?.has(name) ?? false;
  }

  /** `true`/`1` → true; `false`/`0`/absent → false; anything else → 400. */
  bool(name: string): boolean {
    const v = this.get(name);
    if (v === undefined || v === '' || v === 'false' || v === '0') return false;
    if (v === 'true' || v === '1') return true;
    throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)} is not a boolean`);
  }

  /** A non-negative integer, or undefined when absent; not an int64 → 400 with strconv's words. */
  count(name: string): number | undefined {
    const n = this.integer(name);
    return n !== undefined && n < 0 ? undefined : n;
  }

  /** An int64, or undefined when absent; anything else → 400 with strconv's words, as the API server's query decoding answers. */
  integer(name: string): number | undefined {
    const v = this.get(name);
    if (v === undefined || v === '') return undefined;
    const n = parseInt64(v);
    if (typeof n === 'string') throw badRequest(n);
    return n;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const v = this.get(name);
    if (v === undefined || v === '') return undefined;
    if (!(allowed as readonly string[]).includes(v)) {
      throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)}: supported values: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
    }
    return v as T;
  }

  isWatch(): boolean {
    return this.bool('watch');
  }

  listRequest(namespace: string): ListRequest {
    const request: ListRequest = { namespace };
    const rv = this.get('resourceVersion');
    if (rv !== undefined && rv !== '') request.resourceVersion = rv;
    const match = this.get('resourceVersionMatch');
    // sendInitialEvents is a bool like any other: a malformed one is a 400 before it is forbidden.
    const sendInitialEvents = this.has('sendInitialEvents') ? String(this.bool('sendInitialEvents')) : undefined;
    throwIfInvalid('ListOptions', listOptionsCauses({ resourceVersion: rv, resourceVersionMatch: match, continue: this.get('continue'), sendInitialEvents }));
    if (match === 'NotOlderThan' || match === 'Exact') request.resourceVersionMatch = match;
    // kube-apiserver takes limit as an int64 and pages only when it is positive: limit=-5 lists everything.
    const limit = this.integer('limit');
    if (limit !== undefined && limit > 0) request.limit = limit;
    const cont = this.get('continue');
    if (cont) request.continue = cont;
    const labelSelector = this.get('labelSelector');
    if (labelSelector) request.labelSelector = labelSelector;
    const fieldSelector = this.get('fieldSelector');
    if (fieldSelector) request.fieldSelector = fieldSelector;
    // Part of ListOptions: decoded (and refused when malformed) even where a list does not use it.
    this.integer('timeoutSeconds');
    return request;
  }

  watchRequest(namespace: string): WatchRequest {
    const request: WatchRequest = { namespace };
    const rv = this.get('resourceVersion');
    if (rv !== undefined && rv !== '') request.resourceVersion = rv;
    const match = this.oneOf('resourceVersionMatch', ['NotOlderThan', 'Exact'] as const);
    if (match) request.resourceVersionMatch = match;
    if (this.bool('allowWatchBookmarks')) request.allowWatchBookmarks = true;
    if (this.has('sendInitialEvents')) request.sendInitialEvents = this.bool('sendInitialEvents');
    const timeoutSeconds = this.integer('timeoutSeconds');
    // Like kube-apiserver (minRequestTimeout 1800 s): a watch without a timeout ends after 30–60 min,
    // and a negative one at once (its timer has already run out).
    request.timeoutSeconds = timeoutSeconds !== undefined && timeoutSeconds !== 0 ? timeoutSeconds : Math.round(1800 * (1 + Math.random()));
    const labelSelector = this.get('labelSelector');
    if (labelSelector) request.labelSelector = labelSelector;
    const fieldSelector = this.get('fieldSelector');
    if (fieldSelector) request.fieldSelector = fieldSelector;
    return request;
  }

  /**
   * dryRun / fieldManager / fieldValidation, added to the request's client context; refused together
   * as one invalid `kind` (CreateOptions, UpdateOptions, PatchOptions), as kube-apiserver does. An
   * apply needs a fieldManager; `force` is for apply alone.
   */
  writeContext(base: RequestContext, kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' = 'CreateOptions', patchType?: string): RequestContext {
    const dryRun = this.params?.getAll('dryRun') ?? [];
    const fieldValidation = this.get('fieldValidation');
    const fieldManager = this.get('fieldManager');
    const force = this.get('force');
    const causes: Cause[] = [];
    if (kind === 'PatchOptions') {
      if (patchType !== 'apply' && force !== undefined) causes.push({ field: 'force', reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch' });
      if (patchType === 'apply' && !fieldManager) causes.push({ field: 'fieldManager', reason: 'FieldValueRequired', message: 'Required value: is required for apply patch' });
    }
    causes.push(...fieldManagerCauses(fieldManager), ...dryRunCauses(dryRun), ...fieldValidationCauses(fieldValidation));
    throwIfInvalid(kind, causes);
    const ctx: RequestContext = { ...base, warnings: [] };
    if (fieldValidation) ctx.fieldValidation = fieldValidation as 'Ignore' | 'Warn' | 'Strict';
    if (dryRun.length > 0) ctx.dryRun = true;
    if (fieldManager !== undefined) ctx.fieldManager = fieldManager;
    if (force !== undefined) ctx.force = this.bool('force');
    return ctx;
  }

  /**
   * A delete's write context: dryRun may come in the DeleteOptions body as well as the query
   * (client-go's typed and controller-runtime's clients send it in the body). The options are
   * validated as ValidateDeleteOptions does: one 422 DeleteOptions with every cause.
   */
  deleteContext(base: RequestContext, body: Record<string, unknown> | undefined): RequestContext {
    requireDeleteOptionsKind(body);
    const ctx: RequestContext = { ...base, warnings: [] };
    // With a body, kube-apiserver decodes the options from it alone: the query's are not read.
    const fromBody = body?.['dryRun'];
    const dryRun = body ? (Array.isArray(fromBody) ? fromBody.map(String) : []) : (this.params?.getAll('dryRun') ?? []);
    const causes: Cause[] = [];
    const orphan = body ? body['orphanDependents'] : this.get('orphanDependents');
    const policy = body ? body['propagationPolicy'] : this.get('propagationPolicy');
    if (orphan !== undefined && orphan !== null && policy !== undefined && policy !== null && policy !== '') {
      causes.push({ reason: 'FieldValueInvalid', field: 'propagationPolicy', message: `Invalid value: ${JSON.stringify(policy)}: orphanDependents and deletionPropagation cannot be both set` });
    }
    causes.push(...dryRunCauses(dryRun));
    throwIfInvalid('DeleteOptions', causes);
    if (dryRun.length > 0) ctx.dryRun = true;
    return ctx;
  }

  /** Delete options from a DeleteOptions body (kubectl and client-go send one), else from the query. */
  deleteOptions(body: Record<string, unknown> | undefined): DeleteOptions {
    const options: DeleteOptions = {};
    // The deprecated orphanDependents, when set, decides as kube-apiserver's shouldOrphanDependents
    // does: true orphans the dependents, false deletes them in the background.
    const orphan = body ? body['orphanDependents'] : this.has('orphanDependents') ? this.bool('orphanDependents') : undefined;
    if (typeof orphan === 'boolean') options.propagationPolicy = orphan ? 'Orphan' : 'Background';
    if (!body) {
      const policy = this.get('propagationPolicy');
      if (policy) options.propagationPolicy = propagationPolicy(policy);
      const grace = this.count('gracePeriodSeconds');
      if (grace !== undefined) options.gracePeriodSeconds = grace;
    } else {
      const p = body['propagationPolicy'];
      if (p !== undefined && p !== null) {
        options.propagationPolicy = propagationPolicy(p);
      }
      const g = body['gracePeriodSeconds'];
      if (typeof g === 'number') options.gracePeriodSeconds = g;
      const pre = body['preconditions'];
      if (pre && typeof pre === 'object') {
        const { uid, resourceVersion } = pre as { uid?: unknown; resourceVersion?: unknown };
        options.preconditions = {};
        if (typeof uid === 'string') options.preconditions.uid = uid;
        if (typeof resourceVersion === 'string') options.preconditions.resourceVersion = resourceVersion;
      }
    }
    return options;
  }

  /**
   * The deprecated orphanDependents=false, the one case kube-apiserver answers a delete that leaves
   * the object in place (finalizers) with 202 Accepted rather than 200.
   */
  cascadesExplicitly(body: Record<string, unknown> | undefined): boolean {
    if (body) return body['orphanDependents'] === false;
    return this.get('orphanDependents') === 'false';
  }

  includeObject(): IncludeObject {
    return this.oneOf('includeObject', ['None', 'Metadata', 'Object'] as const) ?? 'Metadata';
  }
}

/**
 * A DELETE's body is decoded as DeleteOptions; another kind is not registered in the options'
 * scheme, which kube-apiserver answers as an unclassified 500.
 */
function requireDeleteOptionsKind(body: Record<string, unknown> | undefined): void {
  const kind = body?.['kind'];
  if (typeof kind !== 'string' || kind === '' || kind === 'DeleteOptions') return;
  throw unclassified(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(String(body?.['apiVersion'] ?? ''))} in scheme "pkg/runtime/scheme.go:100"`);
}

/** A DeleteOptions' propagationPolicy, refused as ValidateDeleteOptions refuses an unknown one. */
function propagationPolicy(p: unknown): 'Foreground' | 'Background' | 'Orphan' {
  if (p === 'Foreground' || p === 'Background' || p === 'Orphan') return p;
  throw invalid('meta.k8s.io', 'DeleteOptions', '', [{ reason: 'FieldValueNotSupported', field: 'propagationPolicy', message: `Unsupported value: ${JSON.stringify(p)}: supported values: "Foreground", "Background", "Orphan", "nil"` }]);
}
