import { STALE_OBJECT, conflict, namespaceNotFound } from '../../shared/apiErrors.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { ADMIN_USER } from '../vocabulary/userInfo.ts';
import type { InProcessCluster } from '../simObjects.ts';
import type { AdmissionPoints, RequestContext, WriteVerb } from '../store/types.ts';
import { RbacEscalation } from '../auth/escalation.ts';
import { RbacAuthorizer } from '../auth/rbacAuthorizer.ts';
import { StaleAdmission, capturePoint, replayPoints, type Captured, type Replay, type WriteTarget } from './writePasses.ts';
import type { AdmissionAttributes } from './admissionAttributes.ts';
import type { MatchContext } from './matching.ts';
import { ruleMatches } from './matching.ts';
import { runMutatingWebhooks } from './mutatingWebhooks.ts';
import { runValidatingWebhooks } from './validatingWebhooks.ts';
import type { CallContext } from './webhookOutcome.ts';
import { webhooksOf, type Operation, type Webhook } from './webhookConfigurations.ts';

// A write with admission, as kube-apiserver runs it: mutating webhooks on the object decoded and
// defaulted, then the kind's own rules, then validating webhooks on the object as it would be
// stored, then the commit. The store is synchronous and webhooks are not, so the write runs in
// passes (writePasses.ts): a dry run up to where mutating admission sees the object, the
// webhooks, a dry run with their changes up to where validating admission sees it, the
// webhooks, then the write itself with the same changes. The write commits only if the object it
// replaces is still the one the webhooks saw; otherwise it all starts again, as the API server's
// update loop retries. Writes no webhook can match take none of this: one synchronous call.

export type { WriteVerb };

export interface AdmittedWrite {
  cluster: InProcessCluster;
  /** The resource as the request addressed it (its version is the request's). */
  info: ResourceInfo;
  /** The URL's namespace and name ('' when it has none). */
  namespace: string;
  name: string;
  subresource: string;
  verb: WriteVerb;
  ctx: RequestContext;
  /** A delete's options, as the webhooks are sent them. */
  deleteOptions?: Record<string, unknown>;
  /** Sends the webhooks' warnings with a refused write's answer (an accepted one sends ctx.warnings). */
  warnOnFailure?: (warnings: readonly string[]) => void;
}

/**
 * A write of a Role, ClusterRole or binding by someone other than a cluster admin, checked for
 * escalation where the object is final (RBAC's storage checks it there too, webhooks or not).
 */
function guardedByRbac<T>(w: AdmittedWrite, write: (ctx: RequestContext) => T): (ctx: RequestContext) => T {
  const user = w.ctx.user;
  if (!user || w.verb === 'delete' || w.verb === 'deletecollection' || !RbacEscalation.applies(user, w.info.group, w.info.resource)) return write;
  const escalation = new RbacEscalation({ authorizer: new RbacAuthorizer(w.cluster), user, resource: w.info.resource, namespace: w.namespace, name: w.name });
  return (ctx) => {
    const points = ctx.admission;
    const guarded: AdmissionPoints = {
      mutate: (obj, old) => (points ? points.mutate(obj, old) : obj),
      validate: (obj, old) => {
        if (obj) escalation.confirm(obj, old);
        points?.validate(obj, old);
      },
      get createdAs() {
        return points?.createdAs;
      },
    };
    return write({ ...ctx, admission: guarded });
  };
}

/**
 * How often a write whose object changed under its webhooks is admitted again before answering 409.
 * kube-apiserver's update loop has no bound; this one only keeps a pathological writer from
 * looping for ever (N clients writing one object at once need up to N passes).
 */
const MAX_PASSES = 25;

const OPERATIONS: Record<WriteVerb, Operation[]> = {
  create: ['CREATE'],
  update: ['UPDATE'],
  // An apply may create its object.
  patch: ['UPDATE', 'CREATE'],
  delete: ['DELETE'],
  deletecollection: ['DELETE'],
};

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };

/** Configurations of admission itself are never sent to webhooks (a broken webhook could not be removed). */
function exempt(info: ResourceInfo): boolean {
  return info.group === 'admissionregistration.k8s.io';
}

function isNamespaces(info: ResourceInfo): boolean {
  return info.group === '' && info.resource === 'namespaces';
}

/** The webhooks the request may reach, by their rules alone (selectors need the object). */
function candidates(webhooks: readonly Webhook[], w: AdmittedWrite, namespace: string): Webhook[] {
  const a = { group: w.info.group, resource: w.info.resource, subresource: w.subresource, namespace };
  return webhooks.filter((h) => h.rules.some((r) => w.info.servedVersions.some((v) => ruleMatches(r, a, v, OPERATIONS[w.verb]))));
}

function optionsFor(operation: Operation, w: AdmittedWrite): Record<string, unknown> {
  const dryRun = w.ctx.dryRun ? { dryRun: ['All'] } : {};
  if (operation === 'DELETE') return { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', ...w.deleteOptions, ...dryRun };
  return {
    kind: operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions',
    apiVersion: 'meta.k8s.io/v1',
    ...dryRun,
    ...(w.ctx.fieldManager ? { fieldManager: w.ctx.fieldManager } : {}),
    ...(w.ctx.fieldValidation ? { fieldValidation: w.ctx.fieldValidation } : {}),
  };
}

class Admission {
  readonly w: AdmittedWrite;
  readonly mutating: Webhook[];
  readonly validating: Webhook[];
  readonly target: WriteTarget;
  readonly call: CallContext;
  readonly match: MatchContext;
  private readonly attrNamespace: string;

  constructor(w: AdmittedWrite, mutating: Webhook[], validating: Webhook[]) {
    this.w = w;
    this.mutating = mutating;
    this.validating = validating;
    this.attrNamespace = isNamespaces(w.info) ? w.name : w.namespace;
    this.target = { kind: w.info.kind, namespace: w.info.namespaced ? w.namespace : '', name: w.name };
    this.call = { cluster: w.cluster, warnings: [], dryRun: w.ctx.dryRun === true, user: w.ctx.user ?? ADMIN_USER, options: {} };
    this.match = {
      namespaceLabels: (name) => {
        try {
          return w.cluster.get(NAMESPACES, '', name).object.metadata.labels;
        } catch {
          throw namespaceNotFound(name);
        }
      },
      user: w.ctx.user ?? ADMIN_USER,
      dryRun: w.ctx.dryRun === true,
    };
  }

  attributes(operation: Operation, object: Readonly<KubeObject> | undefined, oldObject: Readonly<KubeObject> | undefined): AdmissionAttributes {
    const { info } = this.w;
    const named = object ?? oldObject;
    // A generated name is not the request's: webhooks of a create with generateName see none.
    const generated = operation === 'CREATE' && named?.metadata.generateName && named.metadata.name?.startsWith(named.metadata.generateName);
    const name = this.w.name || (generated ? '' : named?.metadata.name ?? '');
    this.call.options = optionsFor(operation, this.w);
    return {
      operation, group: info.group, version: info.version, resource: info.resource, subresource: this.w.subresource, kind: info.kind,
      namespaced: info.namespaced, namespace: this.attrNamespace, name,
      object, oldObject, servedVersions: info.servedVersions,
    };
  }

  /** One pass of the whole admission; throws StaleAdmission when the object moved under it. */
  async pass<T>(write: (ctx: RequestContext) => T): Promise<T> {
    const replay: Replay = {};
    let seen: Captured | undefined;
    if (this.mutating.length && this.w.verb !== 'delete') {
      seen = capturePoint(this.w.ctx, this.target, write, 'mutate', replay);
      if (seen?.object) {
        const operation: Operation = seen.old ? 'UPDATE' : 'CREATE';
        if (operation === 'CREATE' && this.w.info.namespaced) this.match.namespaceLabels(this.target.namespace);
        const after = await runMutatingWebhooks(this.mutating, this.attributes(operation, seen.object, seen.old), this.match, this.call);
        replay.before = seen.object;
        replay.after = after;
        replay.pinnedName = after?.metadata.name;
      }
    }
    if (this.validating.length || (this.w.verb === 'delete' && this.mutating.length)) {
      const final = capturePoint(this.w.ctx, this.target, write, 'validate', replay);
      if (final) {
        seen = final;
        if (this.w.verb === 'delete') {
          await runMutatingWebhooks(this.mutating, this.attributes('DELETE', undefined, final.old), this.match, this.call);
          await runValidatingWebhooks(this.validating, this.attributes('DELETE', undefined, final.old), this.match, this.call);
        } else {
          replay.pinnedName ??= final.object?.metadata.name;
          await runValidatingWebhooks(this.validating, this.attributes(final.old ? 'UPDATE' : 'CREATE', final.object, final.old), this.match, this.call);
        }
      }
    }
    const expected = seen ? new Map([[seen.key, seen.old?.metadata.resourceVersion]]) : undefined;
    const created = seen && !seen.old ? seen.object : undefined;
    return write({ ...this.w.ctx, admission: replayPoints(this.target, replay, expected, created) });
  }

  /** A deletecollection: mutating webhooks once for the collection, validating ones for each object. */
  async passCollection<T>(write: (ctx: RequestContext) => T): Promise<T> {
    const items = new Map<string, string | undefined>();
    const olds: Readonly<KubeObject>[] = [];
    write({
      ...this.w.ctx,
      dryRun: true,
      warnings: [],
      admission: {
        mutate: (obj) => obj,
        validate: (_obj, old) => {
          if (!old || old.kind !== this.target.kind) return;
          items.set(`${old.metadata.namespace ?? ''}/${old.metadata.name ?? ''}`, old.metadata.resourceVersion);
          olds.push(old);
        },
      },
    });
    if (this.mutating.length) await runMutatingWebhooks(this.mutating, this.attributes('DELETE', undefined, undefined), this.match, this.call);
    for (const old of olds) await runValidatingWebhooks(this.validating, this.attributes('DELETE', undefined, old), this.match, this.call);
    return write({ ...this.w.ctx, admission: replayPoints({ ...this.target, name: '' }, {}, items) });
  }
}

/**
 * Runs `write` (the store call, given the context to run it with) under the cluster's admission
 * webhooks. Answers what the write answers; throws a webhook's denial, the API server's 500 for a
 * webhook that failed under failurePolicy Fail, or whatever the write throws.
 */
/** The webhooks a write may reach by their rules (selectors need the object); none for what is never sent to them. */
function reachable(w: AdmittedWrite): { mutating: Webhook[]; validating: Webhook[] } {
  // Of the subresources, /status is written through the object; /scale, /approval and /binding
  // write other kinds (a Scale, a Binding) the sim does not show to webhooks.
  if (exempt(w.info) || (w.subresource !== '' && w.subresource !== 'status')) return { mutating: [], validating: [] };
  const webhooks = webhooksOf(w.cluster);
  const namespace = isNamespaces(w.info) ? w.name : w.namespace;
  return { mutating: candidates(webhooks.mutating, w, namespace), validating: candidates(webhooks.validating, w, namespace) };
}

/** Whether a webhook may be called for the write: without one it can be written synchronously. */
export function webhooksMayAdmit(w: AdmittedWrite): boolean {
  const { mutating, validating } = reachable(w);
  return mutating.length > 0 || validating.length > 0;
}

export async function admittedWrite<T>(w: AdmittedWrite, unguarded: (ctx: RequestContext) => T): Promise<T> {
  const write = guardedByRbac(w, unguarded);
  const { mutating, validating } = reachable(w);
  if (mutating.length === 0 && validating.length === 0) return write(w.ctx);
  const admission = new Admission(w, mutating, validating);
  let failed = true;
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = w.verb === 'deletecollection' ? await admission.passCollection(write) : await admission.pass(write);
        failed = false;
        return result;
      } catch (err) {
        if (!(err instanceof StaleAdmission)) throw err;
        if (attempt >= MAX_PASSES) throw conflict(w.info.group, w.info.resource, w.name, STALE_OBJECT);
        admission.call.warnings.length = 0;
      }
    }
  } finally {
    const { warnings } = admission.call;
    if (warnings.length) {
      (w.ctx.warnings ??= []).push(...warnings);
      if (failed) w.warnOnFailure?.(warnings);
    }
  }
}
