import type { KubeObject } from '../../shared/k8s.ts';
import { objectKey } from '../../shared/keys.ts';
import type { Clock, TimerHandle } from '../../shared/clock.ts';
import { isTerminalError, type ControllerDefinition, type KindRef, type KindSelector } from '../../controllerProtocol/index.ts';
import type { HostMessage, ControllerShape, CacheDelta, EventFate, HeldKey, ReconcileOutcome, ReconcileRecord, StaleRead, TriggerDelta, WriteRecord } from '../../controllerProtocol/index.ts';
import { handleReconcileOutcome, outcomeFromReturn, outcomeFromThrow } from './reconcileHandler.ts';
import type { ControllerQueue, InformerEvent, KindInformer, ObjectWriter } from './ports.ts';
import { createCacheReader, createReconcileContext } from './reconcileContext.ts';
import { createEventWriter, type EventWriter } from './eventRecorder.ts';
import { compareResourceVersions } from './resourceVersion.ts';
import { splitKey } from '../../shared/keys.ts';
import { WrittenVersions } from './writtenVersions.ts';
import { HandledReport } from './handledReport.ts';
import { fateOf, namedPredicates, rejectingPredicate, type EventSource, type NamedPredicate } from './eventSource.ts';

/** Stale reads kept per reconcile (a loop over a stale list would otherwise report thousands). */
const MAX_STALE_READS = 20;

// The controller's engine inside the host process: informer events that pass their source's
// predicates become keys in the workqueue (for → the object itself, owns → its controlling owner,
// watches → the user's map), and every event leaves its fate (enqueued, merged, waiting, filtered,
// unmapped); workers take keys one at a time, ask the gate, call reconcile, and hand the outcome to
// the one requeue decision.

export interface LoopOptions {
  definition: ControllerDefinition;
  informers: KindInformer[];
  queue: ControllerQueue;
  writer: ObjectWriter;
  clock: Clock;
  workers: number;
  /** 0 disables the limit (a line debugger may hold a reconcile for as long as it likes). */
  reconcileTimeoutMs: number;
  /** Resolves when the reconcile may run (the debugger's gate); undefined: always run. */
  gate?: (record: ReconcileRecord) => Promise<{ stepIn?: boolean } | void>;
  /** Before a stepped-into reconcile: make sure a JavaScript debugger is attached. */
  prepareStepIn?: () => Promise<void>;
  mirrorCache: boolean;
  /** Keys that blocked or killed a previous host: held back for a while (see HostInit.holdBack). */
  holdBack?: HeldKey[];
  /** Numbering continues from a previous host's. */
  reconcileSeq?: number;
  deltaSeq?: number;
  send(message: HostMessage): void;
}

/** Longest a queue snapshot lags behind the queue. */
export const QUEUE_REPORT_MS = 100;

const kindId = (k: KindRef) => `${k.apiVersion}/${k.kind}`;
/** A kind without what else its spec carries (predicates, map): records and messages are plain JSON. */
const kindOnly = (k: KindRef): KindRef => ({ apiVersion: k.apiVersion, kind: k.kind });
const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

export class ControllerLoop {
  private readonly opts: LoopOptions;
  private readonly events: EventWriter;
  private readonly informersById = new Map<string, KindInformer>();
  /** This process's writes its informers have not delivered yet (stale reads are checked against them). */
  private readonly written = new WrittenVersions();
  private readonly pendingTriggers = new Map<string, TriggerDelta[]>();
  private deltaSeq = 0;
  private reconcileSeq = 0;
  private cacheResourceVersion = '0';
  private stopped = false;
  private readonly workerLoops: Promise<void>[] = [];
  private lastIdle: boolean | undefined;
  private lastSettled: boolean | undefined;
  /** Keys whose last reconcile failed and that now wait for their retry (backoff). */
  private readonly failing = new Set<string>();
  /**
   * Keys whose last reconcile wrote nothing and asked only to run again later (requeueAfter): a
   * periodic resync waiting on its timer, not work left to do (as `check` counts it).
   */
  private readonly resting = new Set<string>();
  private queueDirty = false;
  private readonly handled: HandledReport;
  private queueTimer: TimerHandle | undefined;

  /** key → until when events do not enqueue it (a held-back key comes back by its own timer). */
  private readonly heldUntil = new Map<string, number>();

  constructor(opts: LoopOptions) {
    this.opts = opts;
    this.handled = new HandledReport((m) => opts.send(m), () => this.flushQueue());
    this.events = createEventWriter(opts.writer, { component: opts.definition.name }, () => opts.clock.now());
    this.reconcileSeq = opts.reconcileSeq ?? 0;
    this.deltaSeq = opts.deltaSeq ?? 0;
    for (const inf of opts.informers) this.informersById.set(kindId(inf.kind), inf);
  }

  get shape(): ControllerShape {
    const d = this.opts.definition;
    return { name: d.name, forKind: kindOnly(d.for), owns: (d.owns ?? []).map(kindOnly), watches: (d.watches ?? []).map(kindOnly), workers: this.opts.workers };
  }

  /** Registers handlers and starts the informers; workers start once every cache has synced. */
  async start(): Promise<void> {
    const d = this.opts.definition;
    const global = namedPredicates(d.predicates);
    const predicatesOf = (list: typeof d.predicates): NamedPredicate[] => [...global, ...namedPredicates(list)];
    this.handle({ kind: kindOnly(d.for), via: 'for', predicates: predicatesOf(d.for.predicates), keysOf: (obj) => [objectKey(obj)] });
    for (const owned of d.owns ?? []) this.handle({ kind: kindOnly(owned), via: 'owns', predicates: predicatesOf(owned.predicates), keysOf: (obj, old) => this.ownerKeys(obj, old) });
    for (const w of d.watches ?? []) {
      const cache = createCacheReader((k) => this.informerFor(k));
      const keysOf = (o: KubeObject) => w.map(o, cache).map((r) => (r.namespace ? `${r.namespace}/${r.name}` : r.name));
      // As controller-runtime's map handler: an update maps the old object too (it may have left a selector).
      this.handle({ kind: kindOnly(w), via: 'watches', predicates: predicatesOf(w.predicates), keysOf: (obj, old) => [...keysOf(obj), ...(old ? keysOf(old) : [])] });
    }
    for (const inf of this.informersById.values()) this.handled.track(inf);
    this.opts.queue.onChange(() => this.queueChanged());
    for (const { key, delayMs, failures } of this.opts.holdBack ?? []) {
      // It failed by taking the host down: like an error, it is retried after a backoff, and the
      // restarted informers' initial list must not run it again at once.
      this.heldUntil.set(key, this.opts.clock.now() + delayMs);
      if ((failures ?? 1) >= 2) this.failing.add(key);
      this.opts.queue.addAfter(key, delayMs);
    }
    for (const inf of this.informersById.values()) inf.start();
    while (![...this.informersById.values()].every((i) => i.hasSynced())) {
      if (this.stopped) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    this.opts.send({ type: 'synced' });
    for (let w = 1; w <= this.opts.workers; w++) this.workerLoops.push(this.runWorker(w));
    this.queueChanged();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.queueTimer?.cancel();
    this.opts.queue.shutDown();
    for (const inf of this.informersById.values()) inf.stop();
    await Promise.race([Promise.all(this.workerLoops), new Promise((r) => setTimeout(r, 1000))]);
    // The Events the last reconciles recorded are still being written: a moment for them.
    await Promise.race([this.events.flush(), new Promise((r) => setTimeout(r, 2000))]);
  }

  /**
   * Every object of the For kind in the cache is reconciled again, as a resync (or a restart) would:
   * each key with a RESYNC trigger. `check` does this once a controller is quiet: a correct
   * controller then writes nothing.
   */
  resync(): void {
    const kind = this.opts.definition.for;
    const inf = this.informersById.get(kindId(kind));
    if (!inf || this.stopped) return;
    for (const object of inf.list()) {
      const key = objectKey(object);
      const trigger: TriggerDelta = { type: 'RESYNC', kind: kind.kind, apiVersion: kind.apiVersion, key, resourceVersion: object.metadata.resourceVersion ?? '', via: 'for', at: this.opts.clock.now() };
      const list = this.pendingTriggers.get(key) ?? [];
      list.push(trigger);
      this.pendingTriggers.set(key, list.slice(-50));
      this.opts.queue.add(key);
    }
  }

  informerFor(kind: KindSelector): KindInformer {
    if (typeof kind !== 'string') {
      const inf = this.informersById.get(kindId(kind));
      if (inf) return inf;
    } else {
      const lower = kind.toLowerCase();
      for (const inf of this.informersById.values()) if (inf.kind.kind.toLowerCase() === lower) return inf;
    }
    const name = typeof kind === 'string' ? kind : kindId(kind);
    throw new Error(`the cache has no ${name}: add it to the controller's \`for\`, \`owns\` or \`watches\``);
  }

  private handle(source: EventSource): void {
    const inf = this.informersById.get(kindId(source.kind));
    if (!inf) throw new Error(`no informer for ${kindId(source.kind)}`);
    // One informer may serve for, owns and watches; each registration maps events on its own.
    inf.onEvent((event) => this.observe(source, event));
  }

  private readonly lastSeqByEvent = new WeakMap<KubeObject, number>();

  private observe(source: EventSource, event: InformerEvent): void {
    const { kind, via } = source;
    const rv = event.object.metadata.resourceVersion ?? '';
    // The same event reaches every registration on this informer; forward it to the parent once.
    let seq = this.lastSeqByEvent.get(event.object);
    if (seq === undefined) {
      seq = ++this.deltaSeq;
      this.lastSeqByEvent.set(event.object, seq);
      if (compareResourceVersions(rv, this.cacheResourceVersion) > 0) this.cacheResourceVersion = rv;
      const delta: CacheDelta = { seq, type: event.type, apiVersion: kind.apiVersion, kind: kind.kind, key: objectKey(event.object), resourceVersion: rv };
      this.written.observed(kind.kind, delta.key, rv, event.type === 'DELETED');
      if (this.opts.mirrorCache) delta.object = event.object;
      this.opts.send({ type: 'delta', delta });
    }
    const resync = event.type === 'MODIFIED' && event.old?.metadata.resourceVersion === rv;
    const now = this.opts.clock.now();
    const objectKeyOf = objectKey(event.object);
    const fate = (f: Omit<EventFate, 'controller' | 'type' | 'apiVersion' | 'kind' | 'key' | 'resourceVersion' | 'via' | 'at'>): void =>
      this.opts.send({ type: 'fate', fate: { controller: this.opts.definition.name, type: resync ? 'RESYNC' : event.type, apiVersion: kind.apiVersion, kind: kind.kind, key: objectKeyOf, resourceVersion: rv, via, ...f, at: now } });
    if (source.predicates.length > 0) {
      const rejected = rejectingPredicate(source.predicates, { type: event.type, object: event.object, old: event.old }, (name, err) =>
        this.opts.send({ type: 'log', line: { level: 'error', message: `predicate ${name} for ${kind.kind} threw: ${(err as Error)?.message ?? String(err)}`, at: now } }),
      );
      if (rejected !== undefined) return fate({ fate: 'filtered', predicate: rejected });
    }
    let keys: string[];
    try {
      keys = source.keysOf(event.object, event.old);
    } catch (err) {
      this.opts.send({ type: 'log', line: { level: 'error', message: `watches map for ${kind.kind} threw: ${(err as Error).message}`, at: now } });
      return fate({ fate: 'unmapped' });
    }
    if (keys.length === 0) return fate({ fate: 'unmapped' });
    for (const key of new Set(keys)) {
      const trigger: TriggerDelta = { type: resync ? 'RESYNC' : event.type, kind: kind.kind, apiVersion: kind.apiVersion, key: objectKeyOf, resourceVersion: rv, via, at: now };
      const list = this.pendingTriggers.get(key) ?? [];
      list.push(trigger);
      this.pendingTriggers.set(key, list.slice(-50));
      fate({ request: key, ...fateOf(this.opts.queue.stateOf(key), this.heldUntilOf(key), now) });
      if (this.isHeld(key)) continue;
      this.opts.queue.add(key);
    }
  }

  private heldUntilOf(key: string): number | undefined {
    return this.heldUntil.size === 0 ? undefined : this.heldUntil.get(key);
  }

  private isHeld(key: string): boolean {
    const until = this.heldUntil.get(key);
    if (until === undefined) return false;
    if (this.opts.clock.now() < until) return true;
    this.heldUntil.delete(key);
    return false;
  }

  /** The controlling owners of this object (and of its previous version) that are of the `for` kind. */
  private ownerKeys(obj: KubeObject, old?: KubeObject): string[] {
    const f = this.opts.definition.for;
    const keys: string[] = [];
    for (const o of [obj, old]) {
      for (const ref of o?.metadata.ownerReferences ?? []) {
        if (!ref.controller || ref.kind !== f.kind || groupOf(ref.apiVersion) !== groupOf(f.apiVersion)) continue;
        keys.push(o?.metadata.namespace ? `${o.metadata.namespace}/${ref.name}` : ref.name);
      }
    }
    return keys;
  }

  private async runWorker(worker: number): Promise<void> {
    for (;;) {
      const key = await this.opts.queue.get();
      if (key === undefined || this.stopped) return;
      try {
        await this.reconcileKey(worker, key);
      } catch (err) {
        this.opts.send({ type: 'fatal', phase: 'run', message: (err as Error).message, stack: (err as Error).stack });
      } finally {
        this.opts.queue.done(key);
        this.queueChanged();
      }
    }
  }

  private async reconcileKey(worker: number, key: string): Promise<void> {
    const { definition, clock } = this.opts;
    const request = splitKey(key);
    this.heldUntil.delete(key);
    const forInformer = this.informerFor(definition.for);
    const object = forInformer.get(key);
    let trigger = this.pendingTriggers.get(key) ?? [];
    this.pendingTriggers.delete(key);
    if (trigger.length === 0) {
      // Nothing new was observed: the key came back through requeue/addAfter.
      trigger = [{ type: 'REQUEUE', kind: definition.for.kind, apiVersion: definition.for.apiVersion, key, resourceVersion: object?.metadata.resourceVersion ?? '', via: 'requeue', at: clock.now() }];
    }
    const seq = ++this.reconcileSeq;
    const record: ReconcileRecord = {
      seq,
      reconcileId: `${definition.name}-${seq}-${Math.random().toString(36).slice(2, 8)}`,
      controller: definition.name,
      worker,
      forKind: kindOnly(definition.for),
      key,
      request,
      trigger,
      object,
      objectResourceVersion: object?.metadata.resourceVersion,
      cacheResourceVersion: this.cacheResourceVersion,
      cacheSeq: this.deltaSeq,
      startedAt: clock.now(),
      writes: [],
      logs: [],
    };
    // The debugger shows the queue as this reconcile found it: it must not lag behind.
    if (this.opts.gate) this.flushQueue();
    this.opts.send({ type: 'reconcileStart', record, gated: this.opts.gate !== undefined });
    const gateDecision = this.opts.gate ? await this.opts.gate(record) : undefined;
    if (this.stopped) return;
    const stepIn = gateDecision?.stepIn === true;
    if (stepIn) await this.opts.prepareStepIn?.();

    const writes: WriteRecord[] = [];
    const staleReads: StaleRead[] = [];
    const abort = new AbortController();
    const ctx = createReconcileContext({
      reconcileId: record.reconcileId,
      seq,
      written: this.written,
      onStaleRead: (read) => staleReads.length < MAX_STALE_READS && staleReads.push(read),
      informerFor: (k) => this.informerFor(k),
      writer: this.opts.writer,
      events: this.events,
      now: () => clock.now(),
      onWrite: (w) => writes.push(w),
      onLog: (line) => this.opts.send({ type: 'log', reconcileId: record.reconcileId, line }),
      signal: abort.signal,
    });
    const started = clock.now();
    const call = () => {
      if (stepIn) {
        // Step Into (F11) here to enter your reconcile.
        // eslint-disable-next-line no-debugger -- the debugger's "step in" lands here on purpose
        debugger;
      }
      return definition.reconcile({ ...request }, ctx);
    };
    // Someone stepping through the code sets the pace: no time limit for a stepped-into reconcile.
    const outcome = await this.callWithTimeout(call, abort, stepIn ? 0 : this.opts.reconcileTimeoutMs);
    const decision = handleReconcileOutcome(this.opts.queue, key, outcome);
    if (decision.action === 'addRateLimited' && decision.reason === 'error') this.failing.add(key);
    else this.failing.delete(key);
    if (decision.action === 'addAfter' && writes.length === 0) this.resting.add(key);
    else this.resting.delete(key);
    this.opts.send({ type: 'reconcileEnd', end: { reconcileId: record.reconcileId, seq, durationMs: clock.now() - started, writes, outcome, decision, ...(staleReads.length ? { staleReads } : {}) } });
  }

  private async callWithTimeout(call: () => unknown, abort: AbortController, limit: number): Promise<ReconcileOutcome> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = (async () => {
      try {
        return outcomeFromReturn(await call());
      } catch (err) {
        return outcomeFromThrow(err, isTerminalError(err));
      }
    })();
    if (!limit) return run;
    const timeout = new Promise<ReconcileOutcome>((resolve) => {
      timer = setTimeout(() => {
        abort.abort(new Error('reconcile timed out'));
        resolve({ kind: 'error', error: { name: 'TimeoutError', message: `reconcile did not finish within ${limit} ms`, terminal: false, timedOut: true } });
      }, limit);
    });
    try {
      return await Promise.race([run, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Queue changes come in bursts (one per add, get, done): the snapshot is sent at most every
   * QUEUE_REPORT_MS, so its cost does not multiply with the queue's length. Idle and settled are
   * cheap to compute and are reported at once, after a fresh snapshot.
   */
  private queueChanged(): void {
    this.queueDirty = true;
    const c = this.opts.queue.counts();
    const idle = c.depth === 0 && c.processing === 0 && c.waiting === 0;
    const settled = c.depth === 0 && c.processing === 0 && c.waiting === this.failing.size + this.resting.size;
    if (idle !== this.lastIdle || settled !== this.lastSettled) {
      this.lastIdle = idle;
      this.lastSettled = settled;
      this.flushQueue();
      this.opts.send({ type: 'idle', idle, settled });
      return;
    }
    this.queueTimer ??= this.opts.clock.setTimer(QUEUE_REPORT_MS, () => {
      this.queueTimer = undefined;
      this.flushQueue();
    });
  }

  private flushQueue(): void {
    this.queueTimer?.cancel();
    this.queueTimer = undefined;
    if (!this.queueDirty) return;
    this.queueDirty = false;
    this.opts.send({ type: 'queue', snapshot: this.opts.queue.snapshot() });
  }
}
