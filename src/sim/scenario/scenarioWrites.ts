import type { GroupVersionResource } from '../../shared/k8s.ts';
import type { RequestContext, WriteVerb } from '../store/types.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';

// A scenario writes as a client of the cluster does, so the admission webhooks the cluster holds
// (a Go program's, installed by controllerlab.Wrap) see its objects: a sample is defaulted and
// validated as `kubectl apply` would have it. The cluster's admission is handed in (AdmitWrite:
// admission stands above scenarios); a write no webhook can match is done at once, and one a
// webhook may see is a promise the runner waits for.

export type MaybePromise<T> = T | Promise<T>;

/** `next(value)`, at once for a value, after it for a promise. */
export function andThen<T, U>(value: MaybePromise<T>, next: (v: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

export interface ScenarioWrite {
  info: ResourceInfo;
  verb: WriteVerb;
  namespace: string;
  /** '' for a create. */
  name: string;
  subresource?: string;
  deleteOptions?: Record<string, unknown>;
}

/** Runs `write` as the cluster admits a client's write: through the webhooks that may be called for it. */
export type AdmitWrite = <T>(target: ScenarioWrite, ctx: RequestContext, write: (ctx: RequestContext) => T) => MaybePromise<T>;

/** Without the cluster's admission: written at once. */
export const WRITE_DIRECTLY: AdmitWrite = (_target, ctx, write) => write(ctx);

export function gvrOf(info: ResourceInfo): GroupVersionResource {
  return { group: info.group, version: info.version, resource: info.resource };
}
