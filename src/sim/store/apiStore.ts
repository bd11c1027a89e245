import type { Clock } from '../../shared/clock.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { apiVersionOf } from '../../shared/k8s.ts';
import { ApiError } from '../../shared/apiError.ts';
import { applyJsonPatch } from '../patch/jsonPatch.ts';
import { applyMergePatch } from '../patch/mergePatch.ts';
import { StrategicPatchError, applyStrategicMergePatch } from '../patch/strategicMergePatch.ts';
import { crdStatus, crdStatusOnCreate, validateCrdForWrite } from '../resources/crd.ts';
import { customResourceSchema, decodeCustomResource, validateCustomResource } from '../crdSchema/customResources.ts';
import {
  applyConfiguration, checkAppliedConfiguration, committedFields, recordApplyCreate, recordUpdate, writeEnded, type FieldManagement,
} from '../apply/fieldManager.ts';
import { fieldManagementFor } from '../apply/forResource.ts';
import { establishCrd, finishCrdCleanup, followCrd, markCrdTerminating } from './crdLifecycle.ts';
import { collectDangling, collectDependents, deleteDependentsFirst, finishForegroundDeletion, orphanDependents, ownersWaitingOn } from './garbageCollector.ts';
import { deleteIfFinalized, emptyNamespace, finishNamespaceIfEmpty, namespaceFinalizers, refuseImmortalNamespaceDeletion, releaseOrphanFinalizer } from './namespaceLifecycle.ts';
import { NAMESPACES, type StoreOps } from './storeOps.ts';
import type { KindRegistry } from '../resources/registry.ts';
import { hasSubresource, type ResourceInfo } from '../vocabulary/resourceInfo.ts';
import {
  STALE_OBJECT, alreadyExists, alreadyExistsBeingDeleted, badRequest, conflict, forbiddenTerminating, invalid, methodNotAllowed,
  namespaceNotFound, notFound, resourceNotFound, unclassified, unsupportedMediaType, type Cause,
} from '../../shared/apiErrors.ts';
import type { HistoryEvent } from './history.ts';
import { matching, parseFilters } from './listing.ts';
import { nestedTooDeeply } from './nestingDepth.ts';
import type { MvccStore, ResourceTable } from './mvccStore.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import { keyOf, nonMetadataChanged, specChanged, timestamp } from '../vocabulary/objectMeta.ts';
import { decodeBuiltin } from './bodyDecoding.ts';
import { patchStrictDecodingError, refuseUndecodablePatchResult } from './patchResultDecoding.ts';
import { uidPreconditionFailed } from './uidPrecondition.ts';
import { refuseUnconditionalUpdate } from './unconditionalUpdate.ts';
import { deletionMark, finalizersForPolicy, gracefulDeletionPending, shortenedDeletion } from './deletionMarks.ts';
import { validateScaleReplicas } from '../crdSchema/scaleReplicas.ts';
import { dedupOwnerReferences } from './ownerReferenceDedup.ts';
import type { DecodingContext } from '../vocabulary/fieldValidation.ts';
import { bodyDecodingOf, cascadeContext, decodingOf, followUpContext, writerOf } from './writeContext.ts';
import { defaultObject, kindModuleFor, strategyFor, tracksGeneration, type StoredObjects } from '../kinds/index.ts';
import { hasZeroStatus, withZeroStatus } from '../kinds/zeroStatus.ts';
import { encodeAsGo } from '../goTypes/goEncoding.ts';
import { typedFieldsView } from '../apply/typedFieldsView.ts';
import { noNewFinalizersWhileDeleting } from './finalizerRules.ts';
import { admitQuota } from './quotaAdmission.ts';
import { subresourceWriter, type SubresourceWriter } from '../kinds/subresourceWriters.ts';
import { checkAppliedFields, checkAppliedKeys } from './applySchema.ts';
import { OwnerIndex } from './ownerIndex.ts';
import { applyScale, toScale } from './scale.ts';
import { statusWrite } from './statusWrite.ts';
import { requestedForm } from './requestedForm.ts';
import { APF_CONSUMER, APF_GROUP, danglingApply, flowSchemasToCheck } from './flowSchemaDangling.ts';
import { keepImmutableMetadata } from './immutableMetadata.ts';
import { checkRepeatedYamlKeys } from './strictAppliedYaml.ts';
import { Stored, mutableCopy, transientStored } from './storedObject.ts';
import type { DeleteOptions, ListRequest, PatchType, RequestContext, SimWatchEvent, Subresource } from './types.ts';
import { eventWithDefaults, readWithDefaults } from './readDefaults.ts';
import { generatedName, validateGenerateName, validateLabelsAndAnnotations, validateName } from '../vocabulary/metadataValidation.ts';
import { validateGeneration, validateObjectMetaRest } from '../kinds/objectMetaValidation.ts';
import { ADMIN_USER } from '../vocabulary/userInfo.ts';
import { parseUint64 } from '../vocabulary/goStrconv.ts';

// The API semantics on top of the MVCC core: what create, update, patch and delete mean for
// metadata (uid, generation, resourceVersion preconditions, finalizers), subresources (/status,
// /scale), and the work controllers would do in a real cluster that the sim does itself —
// garbage collection of dependents, namespace termination, CRDs becoming served. That follow-up
// work runs right after the write that caused it, before the call returns, in commit order.
// Every write takes its request's context as its last argument (writeContext.ts): nothing about the
// running request is kept on the store.

// What a custom resource's PATCH takes: no strategic merge patch (its lists have no merge keys).
const CUSTOM_RESOURCE_PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];

export interface ApiStoreOptions {
  clock: Clock;
  /** For generateName suffixes (scenarios seed it for determinism). */
  random: () => number;
  /** A new uid (seeded runs make them from `random` too). */
  uid: () => string;
  /** Answers true (once) when a conflict fault is armed for this object. */
  consumeConflict: (group: string, resource: string, key: string) => boolean;
  /** Called after a resource stops being served (its CRD went), with its former table. */
  onUnserved: (table: ResourceTable) => void;
}

/** Told of every commit, with the context of the write that made it. */
export type CommitListener = (table: ResourceTable, event: HistoryEvent, ctx: RequestContext) => void;

const CRDS = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };

function requireVerb(info: ResourceInfo, verb: string): void {
  if (!info.verbs.includes(verb)) throw methodNotAllowed(`the server does not allow this method on the requested resource`);
}

function isCrdTable(t: { group: string; resource: string }): boolean {
  return t.group === CRDS.group && t.resource === CRDS.resource;
}

export class ApiStore implements StoreOps {
  readonly owners = new OwnerIndex();
  /**
   * The deletion work of kube-controller-manager's garbage collector and namespace controller,
   * done right after the delete. Off, as in envtest's API server alone: dependents stay, an
   * Orphan or Foreground delete leaves the object behind its `orphan` / `foregroundDeletion`
   * finalizer, and a deleted namespace stays Terminating.
   */
  deletionControllers = true;
  private readonly followUps: (() => void)[] = [];
  private depth = 0;
  private readonly namespacesToCheck = new Set<string>();
  /** Objects whose managedFields an apply already decided (commitUpdate leaves them as they are). */
  private readonly fieldsDecided = new WeakSet<object>();
  /** The object an update's request made, where the stored one puts some of it back: what its field manager records. */
  private readonly requestedForms = new WeakMap<object, KubeObject>();
  private readonly commitListeners = new Set<CommitListener>();
  /** What kind strategies may read: the objects stored now. */
  private readonly storedObjects: StoredObjects = {
    list: (group, resource) => [...this.mvcc.table(group, resource).current.values()].map((s) => s.object),
  };

  readonly mvcc: MvccStore;
  readonly registry: KindRegistry;
  private readonly opts: ApiStoreOptions;

  constructor(mvcc: MvccStore, registry: KindRegistry, opts: ApiStoreOptions) {
    this.mvcc = mvcc;
    this.registry = registry;
    this.opts = opts;
  }

  onCommit(listener: CommitListener): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** Every commit goes through here: the owner index and the follow-up work learn of it, then the listeners. */
  commit(table: ResourceTable, key: string, next: KubeObject | undefined, ctx: RequestContext): HistoryEvent {
    const event = this.mvcc.commit(table, key, next);
    if (next) committedFields(event.object.object.metadata.managedFields);
    this.owners.observe(table, event);
    this.afterCommit(table, event, ctx);
    for (const l of [...this.commitListeners]) l(table, event, ctx);
    return event;
  }

  // ---- reads ----

  table(info: ResourceInfo): ResourceTable {
    return this.mvcc.table(info.group, info.resource);
  }

  /** A stored custom resource as reads serve it, with its CRD's defaults as they are now (readDefaults.ts). */
  served(info: ResourceInfo, stored: Stored): Stored {
    return info.source === 'crd' ? readWithDefaults(stored, customResourceSchema(this.storedCrd(info), info)) : stored;
  }

  /** A watch event of a custom resource as reads serve it (see served). */
  servedEvent(info: ResourceInfo, event: SimWatchEvent): SimWatchEvent {
    return info.source === 'crd' ? eventWithDefaults(event, customResourceSchema(this.storedCrd(info), info)) : event;
  }

  get(info: ResourceInfo, namespace: string, name: string, subresource?: Subresource): Stored {
    requireVerb(info, 'get');
    const stored = this.table(info).current.get(keyOf(info.namespaced ? namespace : '', name));
    // The scale subresource has a storage of its own in the API server, named so in its 404.
    if (!stored) throw notFound(info.group, subresource === 'scale' ? `${info.resource}/scale` : info.resource, name);
    if (subresource === 'scale') return transientStored(toScale(this.scaleInfo(info), stored.object));
    if (subresource === 'status') this.statusInfo(info);
    else if (subresource) this.writerFor(info, subresource);
    return stored;
  }

  // ---- writes ----

  /** Runs a write and the follow-up work it causes (GC, namespace cleanup) before returning. */
  private write<T>(fn: () => T): T {
    this.depth++;
    try {
      return fn();
    } finally {
      this.depth--;
      if (this.depth === 0) this.drain();
    }
  }

  /** The APF consumer's Dangling condition on the FlowSchemas a FlowSchema or priority level write concerns (flowSchemaDangling.ts). */
  private markDangling(table: ResourceTable, event: HistoryEvent): void {
    const schemas = this.mvcc.table(APF_GROUP, 'flowschemas');
    const levels = this.mvcc.table(APF_GROUP, 'prioritylevelconfigurations');
    const info = this.registry.storageInfo(APF_GROUP, 'flowschemas');
    if (!info) return;
    for (const name of flowSchemasToCheck(table, event, schemas)) {
      const schema = schemas.current.get(keyOf('', name))?.object;
      if (!schema || schema.metadata.deletionTimestamp) continue;
      const level = (schema.spec as { priorityLevelConfiguration?: { name?: string } } | undefined)?.priorityLevelConfiguration?.name ?? '';
      const status = danglingApply(schema, levels.current.has(keyOf('', level)), this.opts.clock.now());
      if (status) this.patch(info, '', name, 'apply', status, 'status', { fieldManager: APF_CONSUMER, force: true });
    }
  }

  private drain(): void {
    this.depth++;
    try {
      for (let task = this.followUps.shift(); task; task = this.followUps.shift()) {
        try {
          task();
        } catch (err) {
          // Follow-up work races with the user's own writes (an object already gone): skip it.
          if (!(err instanceof ApiError)) throw err;
        }
      }
    } finally {
      this.depth--;
      // Decodings of managedFields the write made and did not store go with it.
      if (this.depth === 0) writeEnded();
    }
  }

  /** The running write's field manager, apiVersion and field shapes. */
  private fieldManagement(info: ResourceInfo, subresource: Subresource | undefined, ctx: RequestContext): FieldManagement {
    return fieldManagementFor(info, subresource, writerOf(ctx), timestamp(this.opts.clock.now()), () => this.storedCrd(info));
  }

  /** `applied`: the configuration a server-side apply creates the object from. */
  create(info: ResourceInfo, namespace: string, body: KubeObject, ctx: RequestContext, applied?: KubeObject): Stored {
    requireVerb(info, 'create');
    // Reviews are answered by the HTTP server about its caller; a scenario cannot store one.
    if (info.virtual) throw badRequest(`a ${info.kind} is answered by the API server about its caller and is never stored`);
    return this.write(() => {
      const decoded = this.prepareBody(info, body, ctx);
      dedupOwnerReferences(decoded, ctx, false);
      const ns = this.namespaceFor(info, namespace, decoded.metadata.namespace);
      if (ns) decoded.metadata.namespace = ns;
      else delete decoded.metadata.namespace;
      if (!decoded.metadata.name) {
        if (decoded.metadata.generateName) decoded.metadata.name = generatedName(decoded.metadata.generateName, this.opts.random);
        else throw invalid(info.group, info.kind, '', [{ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }]);
      }
      strategyFor(info).normalize?.(decoded);
      defaultObject(info, decoded);
      // The field manager records the request as decoded and defaulted, before admission and the
      // kind's create preparation fill in more (a Pod's service account, a Service's cluster IP).
      if (applied) recordApplyCreate(decoded, applied, this.fieldManagement(info, undefined, ctx));
      else {
        const view = typedFieldsView(decoded, info.source === 'builtin');
        recordUpdate(undefined, view, this.fieldManagement(info, undefined, ctx));
        if (view !== decoded) {
          if (view.metadata.managedFields) decoded.metadata.managedFields = view.metadata.managedFields;
          else delete decoded.metadata.managedFields;
        }
      }
      const obj = this.admitted(info, decoded, undefined, ctx);
      const meta = obj.metadata;
      const name = meta.name ?? '';
      // A custom resource's status is the /status subresource's: dropped before validation, so a
      // create carrying an invalid one succeeds, as kube-apiserver's PrepareForCreate has it.
      if (info.source === 'crd' && hasSubresource(info, 'status')) delete (obj as { status?: unknown }).status;
      this.validate(info, obj);
      if (info.namespaced) this.requireLiveNamespace(info, ns, name);
      // The storage refuses a create carrying a resourceVersion (a dry run never reaches it).
      if (!ctx.dryRun && /^[0-9]+$/.test(meta.resourceVersion ?? '') && Number(meta.resourceVersion) !== 0) {
        throw unclassified('resourceVersion should not be set on objects to be created');
      }
      const table = this.table(info);
      const key = keyOf(ns, name);
      const existing = table.current.get(key);
      if (existing) {
        throw existing.object.metadata.deletionTimestamp ? alreadyExistsBeingDeleted(info.group, info.resource, name) : alreadyExists(info.group, info.resource, name);
      }

      const now = this.opts.clock.now();
      const admitted = ctx.admission?.createdAs;
      meta.uid = admitted?.uid ?? this.opts.uid();
      meta.creationTimestamp = admitted?.creationTimestamp ?? timestamp(now);
      // A kind without a generation of its own keeps the one its creator wrote (validated non-negative).
      if (tracksGeneration(info)) meta.generation = 1;
      delete meta.resourceVersion;
      // kube-apiserver has not kept selfLink since 1.24.
      delete (meta as { selfLink?: unknown }).selfLink;
      delete meta.deletionTimestamp;
      delete meta.deletionGracePeriodSeconds;
      this.defaultsOnCreate(info, obj);
      strategyFor(info).prepareForCreate?.(obj, this.storedObjects, ctx.user ?? ADMIN_USER);
      encodeAsGo(obj);
      ctx.admission?.validate(obj, undefined);
      admitQuota(this, info, 'CREATE', obj, undefined, now, ctx);
      if (ctx.dryRun) return new Stored(obj, 0);
      return this.commit(table, key, obj, ctx).object;
    });
  }

  update(info: ResourceInfo, namespace: string, name: string, body: KubeObject, subresource: Subresource | undefined, ctx: RequestContext): Stored {
    requireVerb(info, 'update');
    return this.write(() => {
      // The handler compares the body with the URL before the storage looks the object up.
      this.namespaceFor(info, namespace, body.metadata?.namespace);
      const action = subresource === 'approval' || subresource === 'binding' || subresource === 'finalize';
      if (!action) checkName(body, name);
      const uid = body.metadata?.uid;
      if (!action && subresource !== 'scale' && uid) {
        const found = this.table(info).current.get(keyOf(info.namespaced ? namespace : '', name))?.object.metadata.uid ?? '';
        if (found !== uid) throw uidPreconditionFailed(info, namespace, name, uid, found);
      }
      const { table, key, current } = this.existing(info, namespace, name);
      if (action) {
        const input = subresource === 'binding' ? body : this.prepareBody(info, body, ctx);
        return this.writeSubresource(info, table, key, current, input, subresource, ctx);
      }
      const next = subresource === 'scale'
        ? this.scaleUpdate(info, current, body)
        : this.mergeIntoCurrent(info, current, this.withDedupedOwners(this.prepareBody(info, body, ctx), ctx, false), subresource, ctx);
      if (subresource !== 'scale') refuseUnconditionalUpdate(info, name, body, current.object);
      this.checkPrecondition(info, name, current, body.metadata?.resourceVersion);
      this.checkConflictFault(info, key, name);
      const stored = this.commitUpdate(info, table, key, current, next, ctx, subresource, subresource !== 'scale');
      return subresource === 'scale' ? transientStored(toScale(info, stored.object)) : stored;
    });
  }

  patch(info: ResourceInfo, namespace: string, name: string, type: PatchType, patch: unknown, subresource: Subresource | undefined, ctx: RequestContext): Stored {
    requireVerb(info, 'patch');
    if (type === 'apply' && subresource !== 'scale') {
      checkAppliedConfiguration(patch as KubeObject, info);
      checkAppliedFields(info, name, patch, customResourceSchema(this.storedCrd(info), info));
      checkAppliedKeys(info, name, patch, this.fieldManagement(info, subresource, ctx).shape);
    }
    return this.write(() => {
      const table = this.table(info);
      const key = keyOf(info.namespaced ? namespace : '', name);
      const current = table.current.get(key);
      if (!current) {
        if (type === 'apply' && !subresource) {
          checkRepeatedYamlKeys(ctx);
          const body = patch as KubeObject;
          checkName(body, name);
          const config = { ...body, metadata: { ...body.metadata, name } };
          return this.create(info, namespace, config, ctx, config);
        }
        throw notFound(info.group, info.resource, name);
      }
      if (subresource === 'approval' || subresource === 'binding' || subresource === 'finalize') {
        this.writerFor(info, subresource);
        const patched = this.applyPatch(info, type, mutableCopy(current.object), patch) as KubeObject;
        if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) throw badRequest('the patch did not produce an object');
        this.decode(info, patched, decodingOf(ctx));
        const rv = patched.metadata?.resourceVersion;
        if (rv !== current.object.metadata.resourceVersion) this.checkPrecondition(info, name, current, rv);
        patched.metadata = { ...patched.metadata, resourceVersion: current.object.metadata.resourceVersion };
        return this.writeSubresource(info, table, key, current, patched, subresource, ctx);
      }
      const base = subresource === 'scale' ? toScale(this.scaleInfo(info), current.object) : current.object;
      const patched = type === 'apply' && subresource !== 'scale'
        ? this.applyConfiguration(info, current.object, patch as KubeObject, subresource, ctx)
        : this.applyPatch(info, type, mutableCopy(base), patch);
      if (type === 'apply') checkRepeatedYamlKeys(ctx);
      if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) throw badRequest('the patch did not produce an object');
      const result = patched as KubeObject;
      if (subresource !== 'scale') refuseUndecodablePatchResult(info, type, patch, result, base);
      if (subresource !== 'scale') {
        try {
          this.decode(info, result, decodingOf(ctx));
        } catch (err) {
          throw type === 'apply' ? err : patchStrictDecodingError(err, type, patch, result, base, info.source === 'crd');
        }
      }
      if (subresource !== 'scale') dedupOwnerReferences(result, ctx, true);
      result.metadata ??= {};
      // A patch may not move the object: the API server checks the result as it checks a PUT's body.
      this.namespaceFor(info, namespace, result.metadata.namespace);
      checkName(result, name);
      const rv = result.metadata.resourceVersion;
      this.checkPrecondition(info, name, current, rv === base.metadata.resourceVersion ? undefined : rv);
      result.metadata.resourceVersion = current.object.metadata.resourceVersion;
      const next = subresource === 'scale'
        ? this.scaleUpdate(info, current, result)
        : this.mergeIntoCurrent(info, current, result, subresource, ctx);
      if (this.fieldsDecided.has(result)) {
        if (result.metadata.managedFields) next.metadata.managedFields = result.metadata.managedFields;
        else delete next.metadata.managedFields;
        this.fieldsDecided.add(next);
      }
      this.checkConflictFault(info, key, name);
      const stored = this.commitUpdate(info, table, key, current, next, ctx, subresource, subresource !== 'scale');
      return subresource === 'scale' ? transientStored(toScale(info, stored.object)) : stored;
    });
  }

  /** Server-side apply: the merged object, its managedFields decided (or a 409 on conflicts). */
  private applyConfiguration(info: ResourceInfo, live: Readonly<KubeObject>, config: KubeObject, subresource: Subresource | undefined, ctx: RequestContext): KubeObject {
    // The merge builds on a mutable copy: pruning and defaulting change it in place.
    const merged = applyConfiguration(live, mutableCopy(live) as KubeObject, config, this.fieldManagement(info, subresource, ctx), ctx.force === true);
    this.fieldsDecided.add(merged);
    return merged;
  }

  delete(info: ResourceInfo, namespace: string, name: string, options: DeleteOptions, ctx: RequestContext): { object: Stored; deleted: boolean } {
    requireVerb(info, 'delete');
    if (info.group === NAMESPACES.group && info.resource === NAMESPACES.resource) refuseImmortalNamespaceDeletion(name);
    return this.write(() => {
      const { table, key, current } = this.existing(info, namespace, name);
      const pre = options.preconditions;
      // The delete's own precondition check names the kind, not the resource (rest.BeforeDelete).
      if (pre?.uid && pre.uid !== current.object.metadata.uid) {
        throw conflict(info.group, info.kind, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${current.object.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== current.object.metadata.resourceVersion) {
        throw conflict(info.group, info.kind, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${current.object.metadata.resourceVersion ?? ''}). The object might have been modified`);
      }
      this.checkConflictFault(info, key, name);
      ctx.admission?.validate(undefined, current.object);
      const isNamespace = info.group === '' && info.resource === 'namespaces';
      const uid = current.object.metadata.uid;
      // With the garbage collector running, a Foreground delete parks the owner behind its
      // finalizer while the dependents go (namespaces and CRDs have lifecycles of their own).
      const foreground = this.deletionControllers && options.propagationPolicy === 'Foreground' && !isNamespace && !isCrdTable(info) && uid !== undefined;
      // A namespace's registry puts the garbage collector's finalizers itself (below).
      const gcFinalizer = isNamespace ? undefined : this.deletionControllers ? (foreground ? 'foregroundDeletion' : undefined) : propagationFinalizer(options.propagationPolicy);
      if (ctx.dryRun) return this.dryRunDeletion(info, current, options, isNamespace ? propagationFinalizer(options.propagationPolicy) : gcFinalizer);
      if (isCrdTable(info)) {
        const marked = markCrdTerminating(this, table, key, current, this.opts.clock.now(), ctx);
        if (marked !== current) this.followUps.push(() => finishCrdCleanup(this, info, table, key, this.opts.clock.now(), cascadeContext(ctx)));
        return { object: marked, deleted: false };
      }
      if (foreground) {
        const marked = this.markForGarbageCollector(table, key, current, 'foregroundDeletion', options, info, ctx);
        deleteDependentsFirst(this, uid, cascadeContext(ctx));
        this.followUps.push(() => finishForegroundDeletion(this, uid, followUpContext(ctx)));
        return marked;
      }
      if (gcFinalizer) return this.markForGarbageCollector(table, key, current, gcFinalizer, options, info, ctx);
      if (options.propagationPolicy === 'Orphan') orphanDependents(this, current.object, cascadeContext(ctx));
      // Foreground on a namespace or a CRD: dependents first, within this call.
      if (options.propagationPolicy === 'Foreground' && uid) deleteDependentsFirst(this, uid, cascadeContext(ctx));
      if (isNamespace || current.object.metadata.finalizers?.length) {
        if (current.object.metadata.deletionTimestamp) {
          return isNamespace ? { object: current, deleted: false } : this.deleteAgain(info, table, key, current, options, ctx);
        }
        const next = mutableCopy(current.object) as KubeObject;
        next.metadata.deletionTimestamp = timestamp(this.opts.clock.now());
        // A namespace's deletion has no grace period (its registry sets none).
        if (!isNamespace) Object.assign(next.metadata, deletionMark(info, current.object, options.gracePeriodSeconds, this.opts.clock.now()));
        if (tracksGeneration(info)) next.metadata.generation = (next.metadata.generation ?? 1) + 1;
        if (isNamespace) {
          (next as { status?: unknown }).status = { phase: 'Terminating' };
          const finalizers = namespaceFinalizers(next.metadata.finalizers, options.propagationPolicy);
          if (finalizers) next.metadata.finalizers = finalizers;
          else delete next.metadata.finalizers;
          if (this.deletionControllers) {
            // The garbage collector's part (dependents were seen to above), then the namespace controller's.
            if (uid && finalizers?.includes('foregroundDeletion')) this.followUps.push(() => finishForegroundDeletion(this, uid, followUpContext(ctx)));
            if (finalizers?.includes('orphan')) this.followUps.push(() => releaseOrphanFinalizer(this, name, followUpContext(ctx)));
            this.followUps.push(() => emptyNamespace(this, name, followUpContext(ctx)));
          }
        }
        const marked = this.commit(table, key, next, ctx).object;
        return { object: marked, deleted: false };
      }
      const deleted = this.commit(table, key, undefined, ctx).object;
      return { object: this.markedAsDeleted(info, deleted, options), deleted: true };
    });
  }

  /**
   * A delete of an object its finalizers already hold in deletion: a graceful kind's pending period
   * may only shorten; otherwise an explicit propagation policy swaps the garbage collector's finalizer.
   */
  private deleteAgain(info: ResourceInfo, table: ResourceTable, key: string, current: Stored, options: DeleteOptions, ctx: RequestContext): { object: Stored; deleted: boolean } {
    const shortened = shortenedDeletion(info, current.object, options.gracePeriodSeconds);
    const finalizers = gracefulDeletionPending(current.object) && !shortened ? undefined : finalizersForPolicy(current.object, options, this.deletionControllers);
    if (!shortened && !finalizers) return { object: current, deleted: false };
    const next = mutableCopy(current.object) as KubeObject;
    if (shortened) Object.assign(next.metadata, shortened);
    if (finalizers) next.metadata.finalizers = finalizers;
    if (!next.metadata.finalizers?.length) return { object: this.markedAsDeleted(info, this.commit(table, key, undefined, ctx).object, options), deleted: true };
    return { object: this.commit(table, key, next, ctx).object, deleted: false };
  }

  /**
   * A kind with graceful deletion (a Pod) answers its delete with the object marked for deletion, as
   * kube-apiserver's BeforeDelete marks it; the sim deletes it at once, whatever the period.
   */
  private markedAsDeleted(info: ResourceInfo, deleted: Stored, options: DeleteOptions): Stored {
    const grace = strategyFor(info).deletionGracePeriod?.(deleted.object, options.gracePeriodSeconds);
    if (grace === undefined) return deleted;
    const marked = mutableCopy(deleted.object) as KubeObject;
    marked.metadata.deletionTimestamp ??= timestamp(this.opts.clock.now() + grace * 1000);
    marked.metadata.deletionGracePeriodSeconds ??= grace;
    return transientStored(marked);
  }

  deleteCollection(info: ResourceInfo, request: ListRequest & DeleteOptions, ctx: RequestContext): Stored[] {
    requireVerb(info, 'deletecollection');
    return this.write(() => {
      const filters = parseFilters(info, request.namespace, request.labelSelector, request.fieldSelector);
      const table = this.table(info);
      const targets = [...matching(table.view(), filters)].map(([, s]) => s);
      // Answered with the list as it was before the deletes (what the store's DeleteCollection
      // returns): objects a finalizer holds are not shown marked.
      for (const { object } of targets) {
        try {
          this.delete(info, object.metadata.namespace ?? '', object.metadata.name ?? '', request, ctx);
        } catch (err) {
          if (!(err instanceof ApiError && err.code === 404)) throw err;
        }
      }
      return targets;
    });
  }

  // ---- helpers: bodies ----

  /** The CRD that serves a custom resource, as stored (undefined for built-ins). */
  private storedCrd(info: ResourceInfo): Readonly<KubeObject> | undefined {
    if (info.source !== 'crd') return undefined;
    return this.mvcc.table(CRDS.group, CRDS.resource).current.get(`${info.resource}.${info.group}`)?.object;
  }

  /** A mutable copy of the body with apiVersion/kind checked and set to the storage version. */
  private decode(info: ResourceInfo, obj: KubeObject, decoding: DecodingContext): void {
    // managedFields are checked by field management (entries it cannot read are ignored), not decoded as typed fields.
    const managedFields = obj.metadata?.managedFields;
    if (managedFields !== undefined) delete obj.metadata.managedFields;
    try {
      decodeBuiltin(info, obj, decoding);
      decodeCustomResource(info, customResourceSchema(this.storedCrd(info), info), obj, decoding);
    } finally {
      if (managedFields !== undefined && typeof obj.metadata === 'object' && obj.metadata !== null) obj.metadata.managedFields = managedFields;
    }
  }

  private withDedupedOwners(obj: KubeObject, ctx: RequestContext, patched: boolean): KubeObject {
    dedupOwnerReferences(obj, ctx, patched);
    return obj;
  }

  private prepareBody(info: ResourceInfo, body: KubeObject, ctx: RequestContext): KubeObject {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the request body must be a JSON object');
    const expected = apiVersionOf(info);
    const servedVersion = !body.apiVersion || body.apiVersion === expected || info.servedVersions.some((v) => apiVersionOf({ group: info.group, version: v }) === body.apiVersion);
    // Built-in bodies go through the API server's scheme, which words a stranger in its own terms.
    if (info.source === 'builtin' && body.kind && body.apiVersion && (!servedVersion || body.kind !== info.kind)) {
      const why = !servedVersion
        ? `no kind "${body.kind}" is registered for version "${body.apiVersion}" in scheme "pkg/runtime/scheme.go:100"`
        : `converting (${body.apiVersion.split('/').at(-1)}.${body.kind}) to (${internalGroupName(info.group)}.${info.kind}): unknown conversion`;
      // The decoded kind's version alone (no group), as create.go's transformDecodeError words it.
      throw badRequest(`${body.kind} in version "${body.apiVersion.split('/').at(-1)}" cannot be handled as a ${info.kind}: ${why}`);
    }
    if (!servedVersion) {
      throw badRequest(`the API version in the data (${body.apiVersion}) does not match the expected API version (${expected})`);
    }
    if (body.kind && body.kind !== info.kind) {
      // A custom resource is decoded whatever its kind, then refused by its validator, which names
      // the kind the body says.
      if (info.source === 'crd') {
        throw invalid(info.group, body.kind, body.metadata?.name ?? '', [{ reason: 'FieldValueInvalid', field: 'kind', message: `Invalid value: ${JSON.stringify(body.kind)}: must be ${info.kind}` }]);
      }
      throw badRequest(`the kind in the data (${body.kind}) does not match the expected kind (${info.kind})`);
    }
    // kind and apiVersion first, as the API server writes them.
    const obj: KubeObject = { kind: info.kind, apiVersion: '', ...mutableCopy(body) };
    this.decode(info, obj, bodyDecodingOf(ctx));
    obj.metadata ??= {};
    obj.apiVersion = apiVersionOf({ group: info.group, version: info.storageVersion });
    obj.kind = info.kind;
    return obj;
  }

  /**
   * The object after mutating admission: a changed one is decoded again (unknown fields dropped
   * quietly, as kube-apiserver decodes a webhook's patch result) and defaulted.
   */
  private admitted(info: ResourceInfo, obj: KubeObject, old: Readonly<KubeObject> | undefined, ctx: RequestContext): KubeObject {
    const points = ctx.admission;
    if (!points) return obj;
    const next = points.mutate(obj, old);
    if (next === obj) return obj;
    next.metadata ??= {};
    if (obj.metadata.namespace !== undefined && next.metadata.namespace !== obj.metadata.namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    this.decode(info, next, { mode: 'Ignore', warnings: undefined });
    next.apiVersion = obj.apiVersion;
    next.kind = obj.kind;
    strategyFor(info).normalize?.(next);
    defaultObject(info, next);
    return next;
  }

  private namespaceFor(info: ResourceInfo, urlNamespace: string, bodyNamespace: string | undefined): string {
    if (!info.namespaced) return '';
    if (bodyNamespace && urlNamespace && bodyNamespace !== urlNamespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const ns = urlNamespace || bodyNamespace || '';
    if (!ns) throw badRequest('an empty namespace may not be set during creation');
    return ns;
  }

  private validate(info: ResourceInfo, obj: KubeObject): void {
    const meta = obj.metadata;
    const causes: Cause[] = meta.generateName ? validateGenerateName(meta.generateName, info.nameRule) : [];
    causes.push(...validateName(meta.name ?? '', info.nameRule), ...validateGeneration(meta));
    causes.push(...validateObjectMetaRest(info, meta));
    if (isCrdTable(info)) causes.push(...validateCrdForWrite(obj));
    causes.push(...(strategyFor(info).validate?.(obj) ?? []), ...(strategyFor(info).validateCreate?.(obj) ?? []));
    causes.push(...validateCustomResource(customResourceSchema(this.storedCrd(info), info), obj, undefined, { scaleCauses: info.source === 'crd' ? validateScaleReplicas(info.scale, obj, false) : [] }));
    if (causes.length) throw invalid(info.group, info.kind, obj.metadata.name ?? '', causes);
  }

  private requireLiveNamespace(info: ResourceInfo, namespace: string, name: string): void {
    const ns = this.mvcc.table(NAMESPACES.group, NAMESPACES.resource).current.get(namespace);
    if (!ns) throw namespaceNotFound(namespace);
    if (ns.object.metadata.deletionTimestamp) throw forbiddenTerminating(info.group, info.resource, name, namespace);
  }

  private defaultsOnCreate(info: ResourceInfo, obj: KubeObject): void {
    const o = obj as Record<string, unknown>;
    if (isCrdTable(info)) {
      o.status = crdStatusOnCreate(obj);
    } else if (kindModuleFor(info)?.statusOnCreate === 'kept') {
      o.status = withZeroStatus(info, o.status);
    } else if (hasSubresource(info, 'status')) {
      // Status is the controllers' to write, through /status (a kind's prepareForCreate may start
      // it). A built-in kind's status is a Go struct, so it is still written empty (`status: {}`,
      // with the fields Go always prints).
      delete o.status;
      if (hasZeroStatus(info)) o.status = withZeroStatus(info, undefined);
      else if (info.source === 'builtin') o.status = {};
    }
  }

  private existing(info: ResourceInfo, namespace: string, name: string): { table: ResourceTable; key: string; current: Stored } {
    const table = this.table(info);
    const key = keyOf(info.namespaced ? namespace : '', name);
    const current = table.current.get(key);
    if (!current) throw notFound(info.group, info.resource, name);
    return { table, key, current };
  }

  private checkPrecondition(info: ResourceInfo, name: string, current: Stored, rv: string | undefined): void {
    // The storage reads the written object's resourceVersion as a number first: not one is its 500.
    const n = rv ? parseUint64(rv) : 0;
    if (typeof n === 'string') throw unclassified(n);
    if (rv && rv !== current.object.metadata.resourceVersion) throw conflict(info.group, info.resource, name, STALE_OBJECT);
  }

  private checkConflictFault(info: ResourceInfo, key: string, name: string): void {
    if (this.opts.consumeConflict(info.group, info.resource, key)) throw conflict(info.group, info.resource, name, STALE_OBJECT);
  }

  private statusInfo(info: ResourceInfo): void {
    if (!hasSubresource(info, 'status')) throw resourceNotFound();
  }

  private writerFor(info: ResourceInfo, subresource: Subresource): SubresourceWriter {
    const write = hasSubresource(info, subresource) ? subresourceWriter(info, subresource) : undefined;
    if (!write) throw resourceNotFound();
    return write;
  }

  /** A write through one kind's own subresource (a CSR's /approval, a Pod's /binding): the kind's writer decides what changes. */
  private writeSubresource(info: ResourceInfo, table: ResourceTable, key: string, current: Stored, body: KubeObject, subresource: Subresource, ctx: RequestContext): Stored {
    const write = this.writerFor(info, subresource);
    const name = current.object.metadata.name ?? '';
    this.checkPrecondition(info, name, current, body.metadata?.resourceVersion);
    const next = write(current.object, body, timestamp(this.opts.clock.now()));
    keepImmutableMetadata(current.object, next);
    const causes = validateLabelsAndAnnotations(next.metadata.labels, next.metadata.annotations);
    if (causes.length) throw invalid(info.group, info.kind, name, causes);
    next.metadata.resourceVersion = current.object.metadata.resourceVersion;
    this.checkConflictFault(info, key, name);
    encodeAsGo(next);
    if (ctx.dryRun) return new Stored(next, current.resourceVersion);
    if (jsonEqual(next, current.object)) return current;
    return this.commit(table, key, next, ctx).object;
  }

  private scaleInfo(info: ResourceInfo): ResourceInfo {
    if (!info.scale) throw resourceNotFound();
    return info;
  }

  /** The new object for a main-resource or /status write: immutable metadata kept, status or spec as the subresource says. */
  private mergeIntoCurrent(info: ResourceInfo, current: Stored, body: KubeObject, subresource: Subresource | undefined, ctx: RequestContext): KubeObject {
    const cur = current.object;
    // Read before the write's object (which may be the request's own) has it put back.
    const sentDeletionTimestamp = body.metadata?.deletionTimestamp;
    let next: KubeObject;
    if (subresource === 'status') {
      this.statusInfo(info);
      body = this.admitted(info, body, cur, ctx);
      next = statusWrite(info, cur, body);
      strategyFor(info).prepareForStatusUpdate?.(next, body, cur, timestamp(this.opts.clock.now()));
    } else {
      strategyFor(info).normalize?.(body);
      defaultObject(info, body);
      next = this.admitted(info, body, cur, ctx);
      strategyFor(info).prepareForUpdate?.(cur, next);
      if (hasSubresource(info, 'status')) {
        const status = (cur as { status?: unknown }).status;
        if (status === undefined) delete (next as { status?: unknown }).status;
        else (next as { status?: unknown }).status = mutableCopy(status);
      }
    }
    refuseImmutableMetadataChange(info, body.metadata?.uid ?? next.metadata.uid, subresource === 'status' && info.source === 'crd' ? undefined : body.metadata?.deletionGracePeriodSeconds, cur.metadata);
    keepImmutableMetadata(cur, next);
    const requested = requestedForm(info, subresource, cur, body, next, sentDeletionTimestamp);
    if (requested) this.requestedForms.set(next, requested);
    if (isCrdTable(info) && subresource !== 'status') {
      const causes = validateCrdForWrite(next);
      if (causes.length) throw invalid(info.group, info.kind, cur.metadata.name ?? '', causes);
      (next as Record<string, unknown>).status = crdStatus(next, timestamp(this.opts.clock.now()));
    }
    return next;
  }

  private scaleUpdate(info: ResourceInfo, current: Stored, scale: KubeObject): KubeObject {
    this.scaleInfo(info);
    const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
    // A custom resource's replicas are checked as the resource's own (validateScaleReplicas), in its words.
    const belowZero = typeof replicas === 'number' && replicas < 0 && info.source !== 'crd';
    if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas) || belowZero)) {
      throw invalid('autoscaling', 'Scale', current.object.metadata.name ?? '', [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0` }]);
    }
    this.checkPrecondition(info, current.object.metadata.name ?? '', current, scale.metadata?.resourceVersion);
    const next = mutableCopy(current.object) as KubeObject;
    applyScale(info, next, scale);
    return next;
  }

  private applyPatch(info: ResourceInfo, type: PatchType, base: Readonly<KubeObject>, patch: unknown): unknown {
    try {
      switch (type) {
        case 'merge':
          return applyMergePatch(base, patch);
        case 'apply':
          // An apply to /scale: replicas merged like a merge patch (the apply itself is tracked on the parent).
          return applyMergePatch(base, patch);
        case 'json':
          return applyJsonPatch(base, patch);
        case 'strategic':
          if (info.source === 'crd') throw unsupportedMediaType(CUSTOM_RESOURCE_PATCH_TYPES);
          return applyStrategicMergePatch(base, patch);
      }
    } catch (err) {
      if (err instanceof StrategicPatchError) throw err.status === 400 ? badRequest(err.message) : unclassified(err.message);
      // Patches copy and clone recursively: a result nested past the engine's stack is too deep to store anyway.
      if (err instanceof RangeError) throw nestedTooDeeply();
      throw err;
    }
  }

  /** Commits an update: generation bump on spec changes, no-op writes skipped, a finalized deletion completes. */
  commitUpdate(info: ResourceInfo, table: ResourceTable, key: string, current: Stored, next: KubeObject, ctx: RequestContext, subresource?: Subresource, admit = false): Stored {
    const cur = current.object;
    const strategy = strategyFor(info);
    // A /status write leaves the rest as stored: the kind's rules are about what the main resource may hold.
    const kindRules = subresource !== 'status';
    const causes = [
      ...noNewFinalizersWhileDeleting(cur, next),
      ...validateObjectMetaRest(info, next.metadata),
      ...(kindRules ? strategy.validate?.(next) ?? [] : []),
      ...(kindRules ? strategy.validateUpdate?.(cur, next) ?? [] : strategy.validateStatusUpdate?.(cur, next) ?? []),
      ...validateCustomResource(customResourceSchema(this.storedCrd(info), info), next, cur, {
        scaleCauses: info.source === 'crd' ? validateScaleReplicas(info.scale, next, subresource === 'status') : [],
        statusWrite: subresource === 'status',
      }),
    ];
    if (causes.length) throw invalid(info.group, info.kind, cur.metadata.name ?? '', causes);
    // In the form the server prints (as the stored object is) before anything is compared with it.
    encodeAsGo(next);
    delete (next.metadata as { selfLink?: unknown }).selfLink;
    if (!tracksGeneration(info)) {
      if (cur.metadata.generation === undefined) delete next.metadata.generation;
      else next.metadata.generation = cur.metadata.generation;
    } else if (subresource !== 'status' && (strategy.generationChanged?.(cur, next) ?? (info.source === 'crd' ? nonMetadataChanged : specChanged)(cur, next))) {
      next.metadata.generation = (cur.metadata.generation ?? 0) + 1;
    }
    else next.metadata.generation = cur.metadata.generation;
    if (admit) ctx.admission?.validate(next, cur);
    if (admit && subresource === undefined) admitQuota(this, info, 'UPDATE', next, cur, this.opts.clock.now(), ctx);
    next.metadata.resourceVersion = cur.metadata.resourceVersion;
    if (cur.metadata.deletionTimestamp && !next.metadata.finalizers?.length && !(info.group === '' && info.resource === 'namespaces')) {
      // The last finalizer gone: the object is deleted, and the write is answered with the object it
      // asked for (its fields recorded), as kube-apiserver's deleteWithoutFinalizers answers a PUT.
      if (!this.fieldsDecided.has(next)) recordUpdate(cur, next, this.fieldManagement(info, subresource, ctx), this.requestedForms.get(next));
      if (!ctx.dryRun) this.commit(table, key, undefined, ctx);
      return transientStored(next);
    }
    if (!this.fieldsDecided.has(next)) recordUpdate(cur, next, this.fieldManagement(info, subresource, ctx), this.requestedForms.get(next));
    // Semantically equal (key order aside, as the API server compares): nothing to write.
    if (ctx.dryRun) return new Stored(next, current.resourceVersion);
    if (jsonEqual(next, current.object)) return current;
    return this.commit(table, key, next, ctx).object;
  }

  /**
   * A dry-run delete answers what the delete would leave, unstored: an object with finalizers (or
   * the garbage collector's, or a namespace) marked for deletion, one without them as deleted.
   */
  private dryRunDeletion(info: ResourceInfo, current: Stored, options: DeleteOptions, gcFinalizer: string | undefined): { object: Stored; deleted: boolean } {
    const cur = current.object;
    const isNamespace = info.group === NAMESPACES.group && info.resource === NAMESPACES.resource;
    if (!gcFinalizer && !isNamespace && !cur.metadata.finalizers?.length) return { object: this.markedAsDeleted(info, current, options), deleted: true };
    if (cur.metadata.deletionTimestamp && (!gcFinalizer || cur.metadata.finalizers?.includes(gcFinalizer))) return { object: current, deleted: false };
    const next = mutableCopy(cur) as KubeObject;
    if (gcFinalizer) next.metadata.finalizers = [...(next.metadata.finalizers ?? []).filter((f) => f !== gcFinalizer), gcFinalizer];
    if (isNamespace) next.metadata.deletionTimestamp ??= timestamp(this.opts.clock.now());
    else if (!next.metadata.deletionTimestamp) Object.assign(next.metadata, deletionMark(info, cur, options.gracePeriodSeconds, this.opts.clock.now()));
    if (tracksGeneration(info)) next.metadata.generation = (next.metadata.generation ?? 1) + 1;
    if (isNamespace) (next as { status?: unknown }).status = { phase: 'Terminating' };
    return { object: transientStored(next), deleted: false };
  }

  /** Without a garbage collector: the object waits behind the finalizer kube-apiserver adds for it. */
  private markForGarbageCollector(table: ResourceTable, key: string, current: Stored, finalizer: string, options: DeleteOptions, info: ResourceInfo, ctx: RequestContext): { object: Stored; deleted: boolean } {
    const cur = current.object;
    if (cur.metadata.deletionTimestamp) return this.deleteAgain(info, table, key, current, options, ctx);
    const next = mutableCopy(cur) as KubeObject;
    next.metadata.finalizers = [...(next.metadata.finalizers ?? []).filter((f) => f !== finalizer), finalizer];
    Object.assign(next.metadata, deletionMark(info, cur, options.gracePeriodSeconds, this.opts.clock.now()));
    if (tracksGeneration(info)) next.metadata.generation = (next.metadata.generation ?? 1) + 1;
    return { object: this.commit(table, key, next, ctx).object, deleted: false };
  }

  // ---- follow-up work: what controllers do in a real cluster ----

  private afterCommit(table: ResourceTable, event: HistoryEvent, ctx: RequestContext): void {
    const obj = event.object.object;
    if (table.group === APF_GROUP && (table.resource === 'flowschemas' || table.resource === 'prioritylevelconfigurations')) {
      this.followUps.push(() => this.markDangling(table, event));
    }
    if (isCrdTable(table)) {
      followCrd(this, event, this.opts.onUnserved);
      const key = keyOf('', obj.metadata.name ?? '');
      if (event.type === 'ADDED') this.followUps.push(() => establishCrd(this, table, key, this.opts.clock.now(), ctx));
    }
    if (!this.deletionControllers) {
      if (table.group === NAMESPACES.group && table.resource === NAMESPACES.resource && event.type === 'MODIFIED' && obj.metadata.deletionTimestamp) {
        const name = obj.metadata.name ?? '';
        this.followUps.push(() => deleteIfFinalized(this, name, cascadeContext(ctx)));
      }
      if (this.depth === 0) this.drain();
      return;
    }
    if (table.group === NAMESPACES.group && table.resource === NAMESPACES.resource && event.type === 'MODIFIED' && obj.metadata.deletionTimestamp) {
      // A Terminating namespace may just have lost its last finalizer.
      const name = obj.metadata.name ?? '';
      this.followUps.push(() => finishNamespaceIfEmpty(this, name, followUpContext(ctx)));
    }
    // A dependent gone, or no longer blocking: an owner deleting in the foreground may go now.
    if (obj.metadata.ownerReferences?.length || event.prev?.object.metadata.ownerReferences?.length) {
      for (const owner of ownersWaitingOn(this, obj, event.prev?.object)) this.followUps.push(() => finishForegroundDeletion(this, owner, followUpContext(ctx)));
    }
    if (event.type !== 'DELETED') {
      // Written with owners that are all gone (made from a stale view of its owner): the garbage
      // collector finds its references dangling and deletes it, as it does for the owner's dependents.
      if (!obj.metadata.deletionTimestamp && this.owners.ownersAllGone(obj)) this.followUps.push(() => collectDangling(this, table, event.key, followUpContext(ctx)));
      if (this.depth === 0) this.drain();
      return;
    }
    const uid = obj.metadata.uid;
    if (uid && this.owners.dependentsOf(uid).length) this.followUps.push(() => collectDependents(this, uid, followUpContext(ctx)));
    const ns = obj.metadata.namespace;
    if (ns) {
      const nsObj = this.mvcc.table(NAMESPACES.group, NAMESPACES.resource).current.get(ns);
      if (nsObj?.object.metadata.deletionTimestamp && !this.namespacesToCheck.has(ns)) {
        this.namespacesToCheck.add(ns);
        this.followUps.push(() => {
          this.namespacesToCheck.delete(ns);
          finishNamespaceIfEmpty(this, ns, followUpContext(ctx));
        });
      }
    }
    if (this.depth === 0) this.drain();
  }
}

/** The finalizer kube-apiserver's registry adds for the garbage collector to honour a propagation policy. */
function propagationFinalizer(policy: DeleteOptions['propagationPolicy']): string | undefined {
  return policy === 'Orphan' ? 'orphan' : policy === 'Foreground' ? 'foregroundDeletion' : undefined;
}

/** A PUT's body (or a patch's result) must name the object on the URL (checkName in the API server's handlers). */
function checkName(obj: KubeObject, name: string): void {
  const named = obj.metadata?.name;
  if (named && named !== name) throw badRequest(`the name of the object (${named}) does not match the name on the URL (${name})`);
}

/** The Go package name of a group's internal types, as conversion errors name it (`core`, `apps`, `networking`). */
function internalGroupName(group: string): string {
  return group === '' ? 'core' : group.split('.')[0]!;
}

/**
 * An update may leave uid out (the stored one is kept) but not change it. kube-apiserver validates an
 * update's metadata twice (the generic BeforeUpdate and the kind's strategy), so the cause is listed twice.
 */
/**
 * A uid or a deletion grace period other than the stored object's: each cause twice, as the
 * metadata is validated twice. A grace period left out keeps the stored one, and so does a custom
 * resource's /status write, whatever it says (its status strategy keeps the stored metadata).
 */
function refuseImmutableMetadataChange(info: ResourceInfo, uid: string | undefined, grace: unknown, current: Readonly<KubeObject['metadata']>): void {
  const causes: Cause[] = [];
  if (uid && uid !== current.uid) causes.push({ reason: 'FieldValueInvalid', field: 'metadata.uid', message: `Invalid value: ${JSON.stringify(uid)}: field is immutable` });
  if (grace !== undefined && grace !== null && grace !== current.deletionGracePeriodSeconds) {
    causes.push({ reason: 'FieldValueInvalid', field: 'metadata.deletionGracePeriodSeconds', message: `Invalid value: ${JSON.stringify(grace)}: field is immutable` });
  }
  if (causes.length) throw invalid(info.group, info.kind, current.name ?? '', [...causes, ...causes.map((c) => ({ ...c }))]);
}
