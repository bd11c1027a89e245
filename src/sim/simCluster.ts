import type { Clock, TimerHandle } from '../shared/clock.ts';
import { realClock } from '../shared/clock.ts';
import type { GroupVersionResource, KubeObject } from '../shared/k8s.ts';
import { apiVersionOf, qualifiedResource } from '../shared/k8s.ts';
import { ApiError } from '../shared/apiError.ts';
import type { ListerWatcher } from '../informer/index.ts';
import { bootstrapApiServer } from './bootstrap/apiServerBootstrap.ts';
import { crdResources, validateCrd } from './resources/crd.ts';
import { KindRegistry } from './resources/registry.ts';
import type { ResourceInfo, ResourceRegistry } from './vocabulary/resourceInfo.ts';
import { ApiStore } from './store/apiStore.ts';
import { IN_PROCESS } from './store/writeContext.ts';
import { WriteListeners, type WriteListenerOptions } from './store/writeRecords.ts';
import { ClientRegistry } from './store/clientInsight.ts';
import { FaultController } from './faults/faultController.ts';
import type { FaultControls, WatchScope } from './faults/faultControls.ts';
import { laggingListRequest } from './faults/staleView.ts';
import { FaultArgumentError } from './faults/faultArguments.ts';
import { faultArgsFrom } from './faults/faultCalls.ts';
import { applyFault, faultNamed } from './faults/faultTable.ts';
import { listJson, listTable, windowStartOf } from './store/listing.ts';
import { startStorageCompaction } from './store/storageCompaction.ts';
import { DEFAULT_HISTORY_BYTES, MvccStore } from './store/mvccStore.ts';
import { HeapQuota, processHeap, type HeapReading } from './store/heapQuota.ts';
import { Persistence, type PersistenceOptions } from './store/persistence.ts';
import { loadStateDir, prepareStateDir, type LoadedState } from './store/stateDir.ts';
import type { Stored } from './store/storedObject.ts';
import { openWatch } from './store/watchOpen.ts';
import type { Watcher } from './store/watcher.ts';
import { SimListerWatcher } from './simListerWatcher.ts';
import type { InProcessCluster, ScenarioRunHandle, ScenarioTarget } from './simObjects.ts';
import { startScenario, type ScenarioOptions, type ScenarioRun } from './scenario/scenarioRunner.ts';
import { seededRandom, uuidFrom } from '../shared/seededRandom.ts';
import { replayTrace, type TraceReplay } from './scenario/traceReplay.ts';
import { onClock, startWorkloads, type RunningWorkloads, type WorkloadOptions } from './workloads/index.ts';
import { randomUUID } from 'node:crypto';
import type {
  ClientInsight,
  DeleteOptions,
  DeleteResult,
  ListRequest,
  ListResult,
  PatchType,
  RequestContext,
  SimWatch,
  StoredObject,
  Subresource,
  UserWatch,
  WatchListener,
  WatchRequest,
  WriteCall,
  WriteRecord,
  WriteVerb,
} from './store/types.ts';

// The simulated cluster as a library: what the HTTP server (src/sim/server), the CLI, scenarios,
// the in-process ListerWatcher and the views use. Every method addresses a resource by its
// group/version/resource (the URL's parts); namespace '' means cluster-scoped or all namespaces.
// Failures throw ApiError carrying the Status kube-apiserver would send.

export interface SimClusterOptions {
  clock?: Clock;
  /**
   * What the workload simulation's loops time their waits by (a Pod's start delay, a Job's run,
   * backoff); default `clock`. A check gives its scenario clock, which jumps over such a wait
   * while nothing else is going on.
   */
  workloadClock?: Clock;
  /** Events kept per resource for watch resumes (the watch cache's ring buffer). Default 1000. */
  watchCacheSize?: number;
  /** The bytes (of JSON) the watch cache of every resource keeps together; the oldest events go first. Default 128 MiB, or an eighth of the heap's limit when less. */
  watchCacheBytes?: number;
  /**
   * The heap whose quota puts must stay within (etcd's "database space exceeded" past it): this
   * process's by default; false for none.
   */
  heap?: HeapReading | false;
  /** Told when puts start being refused for the heap (why) and when they are taken again (undefined). */
  onHeapQuota?: (problem: string | undefined) => void;
  /**
   * The resourceVersion a fresh cluster's first write comes after (default 0). A check starts one
   * reference run elsewhere, so that a value a controller derived from a resourceVersion shows as
   * varying between runs rather than as state.
   */
  resourceVersionsAfter?: number;
  /** Interval between bookmarks on watches that allow them. Default 60 000 ms. */
  bookmarkIntervalMs?: number;
  /**
   * Compact storage every five minutes as kube-apiserver compacts etcd (storageCompaction.ts):
   * continue tokens and Exact lists older than that expire. Default off; `controller-lab sim`
   * turns it on for an in-memory cluster (a state dir journals every revision it serves).
   */
  storageCompaction?: boolean;
  /**
   * When set, every write is journaled there (durable before the HTTP answer, see whenDurable) and
   * the state is loaded from it on start. Throws StateFileError if it holds something unreadable.
   */
  stateDir?: string;
  /** Tuning and a fault-injectable file layer for the state dir (tests). */
  persistence?: PersistenceOptions;
  /**
   * Start from a damaged state dir anyway: what can be read is loaded and each loss is said (on
   * stderr, or persistence.log). Without it, damage stops the start (StateFileError).
   */
  acceptStateLoss?: boolean;
  /** Seeds uids and generated names (default: Math.random). Scenarios reseed with their own seed. */
  seed?: number;
  /** Create default, kube-system, kube-public, kube-node-lease at start (default true). */
  defaultNamespaces?: boolean;
  /**
   * What a real cluster has from its first second (src/sim/bootstrap): kube-apiserver's RBAC policy
   * and PriorityClasses at start and, once served, the `kubernetes` Service and kube-controller-manager's
   * per-namespace objects. Default: on, unless `defaultNamespaces` is false (an empty store).
   */
  bootstrap?: boolean;
}

export type { ScenarioRunHandle };

export interface SimClusterApi extends InProcessCluster {
  readonly faults: FaultControls;
  readonly clients: ClientInsight;
  /** Whether the cluster runs its bootstrap (src/sim/bootstrap); a server then starts its control plane. */
  readonly bootstrap?: boolean;
  /** The latest resourceVersion (the global revision). */
  readonly resourceVersion: number;

  /** Deletes every object the request's selectors match; answers the list of what was deleted. */
  deleteCollection(gvr: GroupVersionResource, request: ListRequest & DeleteOptions, ctx?: RequestContext): ListResult;

  /** Drops history before `rv` (default: now). */
  compact(rv?: number): number;
  /** Ends every watch; state and RVs carry on (`dropHistory`: resumes from before get 410). */
  restart(options?: { dropHistory?: boolean }): void;
  /** Parses, validates and starts a scenario (YAML text). Throws a ScenarioError naming line and field. */
  loadScenario(yamlText: string, options?: ScenarioOptions): ScenarioRunHandle;
  /** Applies a fault of the table by name (as the admin endpoint does) and notes it in `faults.history()`. */
  applyFault(name: string, args?: Record<string, unknown>): Record<string, unknown>;
  /** Replays JSON lines of recorded watch events on the clock (`speed` 0: at once). Throws TraceError naming bad lines. */
  replayTrace(jsonLines: string, options?: { speed?: number }): TraceReplay;
  /**
   * Starts the built-in workload controllers, scheduler and fake Nodes (once; later calls answer
   * the options already running). Off by default so a user's own controllers are not raced.
   */
  enableWorkloads(options?: Partial<WorkloadOptions>): WorkloadOptions;
  /**
   * Whether the workload simulation has work on the way: a key queued in one of its loops, or one
   * due within `withinMs` (a Pod about to start, a Job about to finish). False when it is off.
   */
  workloadsBusy(withinMs: number): boolean;
  /** What the store holds, per resource: for the views' cluster panel and the admin endpoint. */
  stats(): SimStats;
  /**
   * The open watches made as `user` and what each has not sent yet: whether that client has been
   * told everything (check waits for it before it reads a run's end state).
   */
  watchesOf(user: string): UserWatch[];
  /**
   * Per resource `user` watches, what its open watches' scopes hold now: how many objects, and the
   * sum of their resourceVersions (what a client that has taken in all they sent holds; check
   * compares it with what the controller's handlers were given).
   */
  watchedViewsOf(user: string): Map<string, { objects: number; rvSum: number }>;
  /**
   * Resolves once every write made so far is on disk (at once without a state dir): the HTTP server
   * answers a write only then. Rejects with a 500 ApiError if it could not be saved.
   */
  whenDurable(): Promise<void>;
  /** Why the state dir cannot be written now (the server's /readyz reports it), or undefined. */
  persistenceProblem(): string | undefined;
  /** Why puts are refused now, the heap being past its quota (the server's /readyz reports it), or undefined. */
  heapProblem(): string | undefined;
  /** Says a loss a start accepted (acceptStateLoss) as the state dir's own are said: the server says its CA's and token's. */
  stateLossAccepted(loss: string): void;
  /** Writes what is pending and a final snapshot (when persisting) and ends every watch and timer. */
  close(): Promise<void>;
}

export interface SimResourceStats {
  group: string;
  resource: string;
  objects: number;
  /** Events in the watch-cache window. */
  historyEvents: number;
  /** Resumes from an RV below this get 410 Expired. */
  oldestResourceVersion: number;
  watchers: number;
}

export interface SimStats {
  resourceVersion: number;
  compactedResourceVersion: number;
  watchCacheSize: number;
  resources: SimResourceStats[];
}

const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export class SimCluster implements SimClusterApi, ScenarioTarget {
  readonly clock: Clock;
  readonly resources: KindRegistry;
  readonly faults: FaultController;
  readonly clients: ClientRegistry;
  readonly bootstrap: boolean;
  private readonly mvcc: MvccStore;
  private readonly api: ApiStore;
  private readonly bookmarkIntervalMs: number;
  private readonly watchCacheSize: number;
  private readonly writes = new WriteListeners();
  private readonly persistence: Persistence | undefined;
  /** The periodic storage compaction's rounds, when on. */
  private readonly storageCompaction: TimerHandle | undefined;
  private readonly heapQuota: HeapQuota | undefined;
  private readonly log: (line: string) => void;
  private nextWatchId = 1;
  private workloads: RunningWorkloads | undefined;
  private readonly workloadClock: Clock;
  private random: () => number = Math.random;
  private seeded = false;

  constructor(options: SimClusterOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.workloadClock = options.workloadClock ?? this.clock;
    this.bookmarkIntervalMs = options.bookmarkIntervalMs ?? 60_000;
    this.resources = new KindRegistry();
    this.watchCacheSize = options.watchCacheSize ?? 1000;
    const heap = options.heap === false ? undefined : options.heap ?? processHeap;
    // Deleted objects stay in the watch cache: it may hold an eighth of the heap, so deletes make room.
    this.mvcc = new MvccStore(this.watchCacheSize, options.resourceVersionsAfter ?? 0, options.watchCacheBytes ?? Math.min(DEFAULT_HISTORY_BYTES, heap ? heap.limit / 8 : Infinity));
    if (heap) this.heapQuota = this.mvcc.quota = new HeapQuota(heap, options.onHeapQuota);
    this.faults = new FaultController({
      dropWatches: (scope) => this.eachWatcher((w) => w.end('dropped', true), scope),
      expireWatches: (scope, discardWithheld) => this.eachWatcher((w) => w.expire(discardWithheld), scope),
      compact: (rv) => this.mvcc.compact(rv ?? this.mvcc.resourceVersion),
      restart: (options) => {
        this.eachWatcher((w) => w.end('restart', true));
        if (options?.dropHistory) this.mvcc.resetHistory();
      },
      wakeWatchers: (user) => this.eachWatcher((w) => w.wake(), { user }),
      releaseHeld: (user) => this.eachWatcher((w) => w.releaseHeld(), { user }),
    }, this.clock);
    this.clients = new ClientRegistry(this.clock);
    this.api = new ApiStore(this.mvcc, this.resources, {
      clock: this.clock,
      random: () => this.random(),
      uid: () => (this.seeded ? uuidFrom(this.random) : randomUUID()),
      consumeConflict: (g, r, k) => this.faults.consumeConflict(g, r, k),
      // Each object's delete, committed before the CRD went, is told before the stream ends.
      onUnserved: (table) => { for (const w of [...table.watchers]) w.end('unserved'); },
    });
    this.api.onCommit((table, event, ctx) => this.writes.commit(table.group, table.resource, event, ctx));

    if (options.seed !== undefined) this.seed(options.seed);
    const loaded = options.stateDir ? loadStateDir(options.stateDir, { acceptLoss: options.acceptStateLoss === true }) : undefined;
    this.log = options.persistence?.log ?? ((line: string) => process.stderr.write(`controller-lab sim: ${line}\n`));
    for (const loss of loaded?.losses ?? []) this.stateLossAccepted(loss);
    if (loaded && !loaded.fresh) this.restore(loaded);
    if (options.defaultNamespaces !== false) {
      // As kube-apiserver's bootstrap controller, at every start: the system namespaces are there.
      const namespaces = this.mvcc.table('', 'namespaces');
      for (const name of DEFAULT_NAMESPACES) {
        if (!namespaces.current.has(name)) this.create({ group: '', version: 'v1', resource: 'namespaces' }, '', { metadata: { name } }, { fieldManager: 'kube-apiserver' });
      }
    }
    if (options.stateDir && loaded) {
      prepareStateDir(options.stateDir);
      this.persistence = new Persistence(options.stateDir, this.mvcc, loaded, options.persistence);
      this.mvcc.commitLog = this.persistence;
    }
    this.bootstrap = options.bootstrap ?? options.defaultNamespaces !== false;
    if (this.bootstrap) bootstrapApiServer(this);
    if (options.storageCompaction && !this.persistence) this.storageCompaction = startStorageCompaction(this.mvcc, this.clock);
  }

  get resourceVersion(): number {
    return this.mvcc.resourceVersion;
  }

  /** Seeds uid and generateName randomness (scenarios do, for repeatable runs). */
  seed(seed: number): void {
    this.seeded = true;
    this.random = seededRandom(seed);
  }

  // ---- reads ----

  list(gvr: GroupVersionResource, request: ListRequest, ctx?: RequestContext): ListResult {
    const info = this.resources.require(gvr);
    if (!info.verbs.includes('list')) throw this.methodNotAllowed();
    const lagging = this.faults.staleViewOf(ctx?.user?.username);
    if (lagging !== undefined) request = laggingListRequest(request, lagging);
    try {
      const result = listTable(this.mvcc, this.api.table(info), info, request, { kind: `${info.kind}List`, apiVersion: apiVersionOf(info) });
      const items = result.items.map((s) => this.out(info, this.api.served(info, s as Stored)));
      if (items.some((s, i) => s !== result.items[i])) {
        result.items = items;
        result.json = () => listJson(result);
      }
      if (ctx?.client) this.clients.recordList(ctx.client, qualifiedResource(info), String(result.resourceVersion), result.items.length, request.limit);
      return result;
    } catch (err) {
      if (ctx?.client && err instanceof ApiError) this.clients.recordError(ctx.client, 'list', qualifiedResource(info), err.code);
      throw err;
    }
  }

  get(gvr: GroupVersionResource, namespace: string, name: string, subresource?: Subresource, _ctx?: RequestContext): StoredObject {
    const info = this.resources.require(gvr);
    const stored = this.api.get(info, namespace, name, subresource);
    return this.out(info, subresource === 'scale' ? stored : this.api.served(info, stored), subresource);
  }

  // ---- writes ----

  create(gvr: GroupVersionResource, namespace: string, body: KubeObject, ctx?: RequestContext): StoredObject {
    const info = this.resources.require(gvr);
    return this.recorded(ctx, { verb: 'create' }, info, namespace, body.metadata?.name ?? body.metadata?.generateName ?? '', (c) =>
      this.out(info, this.api.create(info, namespace, body, c)));
  }

  update(gvr: GroupVersionResource, namespace: string, name: string, body: KubeObject, subresource?: Subresource, ctx?: RequestContext): StoredObject {
    const info = this.resources.require(gvr);
    return this.recorded(ctx, callOf('update', subresource), info, namespace, name, (c) =>
      this.out(info, this.api.update(info, namespace, name, body, subresource, c), subresource));
  }

  patch(gvr: GroupVersionResource, namespace: string, name: string, type: PatchType, patch: unknown, subresource?: Subresource, ctx?: RequestContext): StoredObject {
    const info = this.resources.require(gvr);
    return this.recorded(ctx, { ...callOf('patch', subresource), patchType: type }, info, namespace, name, (c) =>
      this.out(info, this.api.patch(info, namespace, name, type, patch, subresource, c), subresource));
  }

  delete(gvr: GroupVersionResource, namespace: string, name: string, options?: DeleteOptions, ctx?: RequestContext): DeleteResult {
    const info = this.resources.require(gvr);
    return this.recorded(ctx, { verb: 'delete' }, info, namespace, name, (c) => {
      const r = this.api.delete(info, namespace, name, options ?? {}, c);
      return { object: this.out(info, r.object), deleted: r.deleted };
    });
  }

  deleteCollection(gvr: GroupVersionResource, request: ListRequest & DeleteOptions, ctx?: RequestContext): ListResult {
    const info = this.resources.require(gvr);
    return this.recorded(ctx, { verb: 'deletecollection' }, info, request.namespace ?? '', '', (c) => {
      const items = this.api.deleteCollection(info, request, c).map((s) => this.out(info, s) as Stored);
      const result: ListResult = { resourceVersion: this.mvcc.resourceVersion, items, kind: `${info.kind}List`, apiVersion: apiVersionOf(info), json: () => listJson(result) };
      if (info.source === 'builtin') result.bareItems = true;
      return result;
    });
  }

  servedVersion(group: string, resource: string): string | undefined {
    return this.resources.storageInfo(group, resource)?.version;
  }

  // ---- watches ----

  watch(gvr: GroupVersionResource, request: WatchRequest, listener: WatchListener, ctx?: RequestContext): SimWatch {
    const info = this.resources.require(gvr);
    if (!info.verbs.includes('watch')) throw this.methodNotAllowed();
    const id = this.nextWatchId++;
    const user = ctx?.user?.username;
    const client = ctx?.client;
    const observe = client
      ? () => this.clients.recordWatch(client, id, qualifiedResource(info), request.namespace ?? '', request.labelSelector ?? '', request.fieldSelector ?? '', request.resourceVersion ?? '')
      : undefined;
    return openWatch({
      id,
      store: this.mvcc,
      table: this.api.table(info),
      info,
      apiVersion: apiVersionOf(info),
      served: (event) => this.api.servedEvent(info, event),
      request,
      listener,
      clock: this.clock,
      gate: this.faults.gateFor(user),
      bookmarkIntervalMs: this.bookmarkIntervalMs,
      observe,
      user,
      asOf: this.faults.staleViewOf(user),
    });
  }

  stats(): SimStats {
    const resources = this.mvcc.allTables().map((t) => ({
      group: t.group,
      resource: t.resource,
      objects: t.current.size,
      historyEvents: t.history.length,
      oldestResourceVersion: windowStartOf(this.mvcc, t),
      watchers: t.watchers.size,
    }));
    return { resourceVersion: this.mvcc.resourceVersion, compactedResourceVersion: this.mvcc.compactedRv, watchCacheSize: this.watchCacheSize, resources };
  }

  watchesOf(user: string): UserWatch[] {
    const out: UserWatch[] = [];
    for (const t of this.mvcc.allTables()) {
      for (const w of t.watchers) if (w.user === user) out.push({ id: w.id, ...w.scope, undelivered: w.undelivered, sent: w.sent });
    }
    return out;
  }

  watchedViewsOf(user: string): Map<string, { objects: number; rvSum: number }> {
    const views = new Map<string, { objects: number; rvSum: number }>();
    for (const t of this.mvcc.allTables()) {
      const mine = [...t.watchers].filter((w) => w.user === user);
      if (mine.length === 0) continue;
      const view = { objects: 0, rvSum: 0 };
      for (const stored of t.current.values()) {
        if (!mine.some((w) => w.matches(stored.object))) continue;
        view.objects++;
        view.rvSum += stored.resourceVersion;
      }
      views.set(mine[0]!.scope.resource, view);
    }
    return views;
  }

  /** Open watches (for the views). */
  openWatchCount(): number {
    let n = 0;
    for (const t of this.mvcc.allTables()) n += t.watchers.size;
    return n;
  }

  // ---- faults & lifecycle ----

  setDeletionControllers(on: boolean): void {
    this.api.deletionControllers = on;
  }

  compact(rv?: number): number {
    return this.faults.compact(rv);
  }

  /** Ends every watch. `dropHistory` also forgets the watch-cache window, like a real restart (resumes → 410). */
  restart(options: { dropHistory?: boolean } = {}): void {
    this.faults.restart(options);
  }

  /**
   * Applies a fault of the table by name, its arguments read as the admin endpoint reads them
   * (a FaultArgumentError names a bad one), and notes it in `faults.history()`.
   */
  applyFault(name: string, args: Record<string, unknown> = {}): Record<string, unknown> {
    const fault = faultNamed(name);
    if (!fault) throw new FaultArgumentError(`there is no fault named ${JSON.stringify(name)}`);
    return applyFault(this, fault, faultArgsFrom(fault, args));
  }

  loadScenario(yamlText: string, options: ScenarioOptions = {}): ScenarioRun {
    return startScenario(this, yamlText, options);
  }

  /** Replays JSON lines of recorded watch events (see scenario/traceReplay.ts). Throws TraceError naming bad lines. */
  replayTrace(jsonLines: string, options: { speed?: number } = {}): TraceReplay {
    return replayTrace(this, jsonLines, options);
  }

  enableWorkloads(options: Partial<WorkloadOptions> = {}): WorkloadOptions {
    const cluster = this.workloadClock === this.clock ? this : onClock(this, this.workloadClock);
    this.workloads ??= startWorkloads(cluster, options, (message) => process.stderr.write(`controller-lab sim: ${message}\n`));
    return this.workloads.options;
  }

  workloadsBusy(withinMs: number): boolean {
    return this.workloads?.busy(withinMs) ?? false;
  }

  /** Every write as it commits (and, with `unchanged`, every write that stored nothing): see store/writeRecords.ts for when. */
  onWrite(listener: (write: WriteRecord) => void, options?: WriteListenerOptions): () => void {
    return this.writes.add(listener, options);
  }

  listerWatcher(gvr: GroupVersionResource, namespace?: string, ctx?: RequestContext, options?: { shareFrozen?: boolean }): ListerWatcher {
    return new SimListerWatcher(this, gvr, namespace, ctx, options);
  }

  async close(): Promise<void> {
    this.storageCompaction?.cancel();
    this.workloads?.stop();
    this.eachWatcher((w) => w.end('dropped', true));
    await this.persistence?.close();
    this.heapQuota?.dispose();
  }

  whenDurable(): Promise<void> {
    return this.persistence ? this.persistence.whenDurable() : Promise.resolve();
  }

  persistenceProblem(): string | undefined {
    return this.persistence?.problem();
  }

  heapProblem(): string | undefined {
    return this.heapQuota?.problem();
  }

  stateLossAccepted(loss: string): void {
    this.log(`state loss accepted: ${loss}`);
  }

  // ---- internals ----

  private out(info: ResourceInfo, stored: Stored, subresource?: Subresource): Stored {
    if (subresource === 'scale' || info.version === info.storageVersion) return stored;
    return stored.asApiVersion(apiVersionOf(info));
  }

  /**
   * Runs a write as a call of its own (its context names the verb, for write records), records it
   * (or its failure) in the client's insight, and reports a write that stored nothing.
   */
  private recorded<T>(ctx: RequestContext | undefined, call: WriteCall, info: ResourceInfo, namespace: string, name: string, fn: (ctx: RequestContext) => T): T {
    const verb = call.verb;
    const callCtx: RequestContext = { ...(ctx ?? IN_PROCESS), write: call };
    try {
      const result = fn(callCtx);
      if (this.writes.wantUnchanged && !callCtx.dryRun && verb !== 'create' && verb !== 'deletecollection' && !this.writes.didCommit(callCtx)) {
        const table = this.api.table(info);
        const key = info.namespaced ? `${namespace}/${name}` : name;
        const stored = table.current.get(key);
        if (stored) this.writes.unchanged(table.group, table.resource, key, stored, callCtx);
      }
      if (ctx?.client) {
        const obj = (result as { object?: Stored }).object ?? (result as Stored);
        const rv = (obj as { resourceVersion?: number }).resourceVersion;
        this.clients.recordWrite(ctx.client, verb, qualifiedResource(info), namespace ? `${namespace}/${name}` : name, String(rv ?? this.mvcc.resourceVersion), 200);
      }
      return result;
    } catch (err) {
      if (ctx?.client && err instanceof ApiError) this.clients.recordWrite(ctx.client, verb, qualifiedResource(info), namespace ? `${namespace}/${name}` : name, '', err.code);
      throw err;
    }
  }

  private methodNotAllowed(): ApiError {
    const message = 'the server does not allow this method on the requested resource';
    return new ApiError(405, message, 'MethodNotAllowed', { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, reason: 'MethodNotAllowed', code: 405 });
  }


  /** Calls `fn` for every open watch in scope (of a resource, by `plural` or `plural.group`; of a user); answers how many. */
  private eachWatcher(fn: (w: Watcher) => void, scope: WatchScope = {}): number {
    const { resource, user } = scope;
    let n = 0;
    for (const t of this.mvcc.allTables()) {
      if (resource && resource !== t.resource && resource !== qualifiedResource(t)) continue;
      for (const w of [...t.watchers]) {
        if (user !== undefined && w.user !== user) continue;
        fn(w);
        n++;
      }
    }
    return n;
  }

  private restore(loaded: LoadedState): void {
    this.mvcc.load(loaded.resourceVersion, loaded.objects);
    // CRDs in the snapshot serve their resources again.
    const crds = this.mvcc.table('apiextensions.k8s.io', 'customresourcedefinitions');
    for (const s of crds.current.values()) {
      if (validateCrd(s.object).length === 0) this.resources.serve(crdResources(s.object));
    }
    // The owner index learns the loaded objects through a replay of what is live.
    for (const t of this.mvcc.allTables()) {
      for (const [key, s] of t.current) this.api.owners.observe(t, { type: 'ADDED', key, rv: s.resourceVersion, object: s });
    }
  }
}

/** A write call's verb, with the subresource it addressed. */
function callOf(verb: WriteVerb, subresource: Subresource | undefined): WriteCall {
  return subresource ? { verb, subresource } : { verb };
}

export type { ClientInsight, FaultControls, ResourceRegistry };
export { seededRandom };
export function createSimCluster(options: SimClusterOptions = {}): SimCluster {
  return new SimCluster(options);
}
