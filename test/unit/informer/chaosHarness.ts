import { createSharedInformer } from '../../../src/informer/sharedInformer.ts';
import type { InformerStats, SharedIndexInformer, SharedInformerOptions } from '../../../src/informer/sharedInformer.ts';
import type { ListerWatcher } from '../../../src/informer/listerWatcher.ts';
import type { DeepReadonly } from '../../../src/informer/readonly.ts';
import type { ProbeKind } from '../../../src/informer/probes.ts';
import { FakeClock } from '../../../src/shared/clock.ts';
import { seededRandom } from '../../../src/shared/seededRandom.ts';
import type { KubeObject } from '../../../src/shared/k8s.ts';

// Chaos convergence, over any backend: random writes interleaved with dropped watches, both forms of
// 410, compactions, restarts, bookmarks and expired continue tokens; after quiescence the informer's
// cache must equal the server's state exactly, and every handler must have seen a consistent history
// per key. A backend is anything that can write, break itself, and tell its state: the in-memory
// fake source (fixtures/fakeBackend.ts), or a real HTTP server with the HTTP ListerWatcher.

export type FaultName =
  /** End every watch cleanly (like a server-side timeout). */
  | 'dropWatches'
  /** End every watch with a transport error. */
  | 'dropWatchesWithError'
  /** Forget the event history; a watch resuming from before gets HTTP 410. */
  | 'compactHttp410'
  /** Forget the event history; a watch resuming from before gets 200 + an ERROR event with 410. */
  | 'compactEvent410'
  /** Restart keeping the store: all watches dropped, continue tokens lost. */
  | 'restart'
  | 'bookmark'
  | 'expireContinueTokens'
  /** The next list request fails (5xx). */
  | 'listError'
  /** The next watch request is refused (5xx). */
  | 'watchError'
  /** A watch event the informer cannot use (no metadata). */
  | 'malformedEvent';

export interface Backend {
  readonly listerWatcher: ListerWatcher;
  /** The faults this backend can inject; the harness picks among them. */
  readonly faults: readonly FaultName[];
  /** Creates the object (it does not exist yet). */
  create(obj: KubeObject): Promise<void> | void;
  /** Writes a new version of an existing object, unconditionally. */
  update(obj: KubeObject): Promise<void> | void;
  delete(namespace: string, name: string): Promise<void> | void;
  inject(fault: FaultName): Promise<void> | void;
  /** The server's objects: key (`ns/name`) → resourceVersion. */
  state(): Promise<Map<string, string>> | Map<string, string>;
  /** Resolves once whatever the backend has in flight reached the informer (I/O, microtasks). */
  settle(): Promise<void>;
  close(): Promise<void> | void;
}

export interface BackendContext {
  clock: FakeClock;
  /** Seeded: use it for any random choice, so a seed reproduces a run. */
  random: () => number;
}

export type BackendFactory = (context: BackendContext) => Backend | Promise<Backend>;

export interface ChaosOptions {
  seed: number;
  backend: BackendFactory;
  /** Random operations per run. Default 60. */
  steps?: number;
  /** Overrides for the informer under test. */
  informer?: Partial<SharedInformerOptions>;
  /** Quiescence rounds (each: settle, 31 s of fake time, settle) before giving up. Default 30. */
  maxQuiesceRounds?: number;
}

export interface ChaosReport {
  seed: number;
  trace: string[];
  stats: InformerStats;
  /** How often each probe kind and fault occurred: what this run exercised. */
  coverage: Record<string, number>;
}

export class ChaosFailure extends Error {
  readonly seed: number;
  readonly trace: string[];

  constructor(seed: number, message: string, trace: string[]) {
    super(`chaos seed ${seed}: ${message}\n  replay with seed ${seed}; last operations:\n    ${trace.slice(-25).join('\n    ')}`);
    this.seed = seed;
    this.trace = trace;
  }
}

/** Seeded: same seed, same run (the simulated cluster's own PRNG). */
export { seededRandom };

const NAMESPACES = ['a', 'b', 'c'];
const NAMES = ['n0', 'n1', 'n2', 'n3', 'n4', 'n5'];

type Meta = { readonly metadata: { readonly namespace?: string; readonly name?: string; readonly resourceVersion?: string } };

const keyOf = (o: Meta): string => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : `${o.metadata.name}`);
const rvNum = (o: Meta): number => Number(o.metadata.resourceVersion);

/** Follows one handler's notifications and checks that they tell a consistent story per key. */
class HistoryChecker {
  readonly view = new Map<string, string>();
  private readonly lastRV = new Map<string, number>();
  readonly violations: string[] = [];
  readonly name: string;
  /** With resync on, an update may repeat the version it already had (client-go isSync). */
  private readonly allowSameVersion: boolean;

  constructor(name: string, allowSameVersion: boolean) {
    this.name = name;
    this.allowSameVersion = allowSameVersion;
  }

  add(o: Meta): void {
    const key = keyOf(o);
    if (this.view.has(key)) this.violate(`add of ${key}@${o.metadata.resourceVersion} while present at ${this.view.get(key)}`);
    const last = this.lastRV.get(key);
    if (last !== undefined && !(rvNum(o) > last)) this.violate(`add of ${key}@${o.metadata.resourceVersion} not after ${last}`);
    this.see(key, o);
  }

  update(old: Meta, o: Meta): void {
    const key = keyOf(o);
    if (!this.view.has(key)) this.violate(`update of ${key}@${o.metadata.resourceVersion} before any add`);
    else if (this.view.get(key) !== old.metadata.resourceVersion) {
      this.violate(`update of ${key}: old@${old.metadata.resourceVersion} is not what was seen (${this.view.get(key)})`);
    }
    const same = rvNum(o) === rvNum(old);
    if (same ? !this.allowSameVersion : !(rvNum(o) > rvNum(old))) {
      this.violate(`update of ${key} from ${old.metadata.resourceVersion} to ${o.metadata.resourceVersion}`);
    }
    this.see(key, o);
  }

  delete(o: Meta): void {
    const key = keyOf(o);
    const seen = this.view.get(key);
    if (seen === undefined) this.violate(`delete of ${key}@${o.metadata.resourceVersion} that is not present`);
    else if (rvNum(o) < Number(seen)) this.violate(`delete of ${key}@${o.metadata.resourceVersion} older than seen ${seen}`);
    this.view.delete(key);
    this.lastRV.set(key, rvNum(o));
  }

  private see(key: string, o: Meta): void {
    this.view.set(key, o.metadata.resourceVersion ?? '');
    this.lastRV.set(key, rvNum(o));
  }

  private violate(message: string): void {
    this.violations.push(`${this.name}: ${message}`);
  }
}

function diff(label: string, actual: Map<string, string>, expected: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, rv] of expected) {
    const got = actual.get(k);
    if (got === undefined) out.push(`${label}: lost ${k}@${rv}`);
    else if (got !== rv) out.push(`${label}: ${k} at ${got}, server at ${rv}`);
  }
  for (const [k, rv] of actual) if (!expected.has(k)) out.push(`${label}: ghost ${k}@${rv}`);
  return out;
}

/** The namespace index must list exactly the cached keys of each namespace. */
function indexProblems(informer: SharedIndexInformer): string[] {
  const out: string[] = [];
  const expected = new Map<string, string[]>();
  for (const key of informer.indexer.listKeys()) {
    const ns = key.includes('/') ? key.slice(0, key.indexOf('/')) : '';
    expected.set(ns, [...(expected.get(ns) ?? []), key]);
  }
  const values = informer.indexer.listIndexFuncValues('namespace');
  for (const ns of new Set([...values, ...expected.keys()])) {
    const got = informer.indexer.indexKeys('namespace', ns).sort().join(',');
    const want = (expected.get(ns) ?? []).sort().join(',');
    if (got !== want) out.push(`namespace index for "${ns}": [${got}], cache has [${want}]`);
  }
  return out;
}

function cacheState(informer: SharedIndexInformer): Map<string, string> {
  return new Map(informer.indexer.list().map((o) => [keyOf(o), o.metadata.resourceVersion ?? '']));
}

/** One seeded chaos run. Resolves with what it exercised; rejects with a ChaosFailure naming the seed. */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const { seed } = options;
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const clock = new FakeClock();
  const backend = await options.backend({ clock, random });
  const trace: string[] = [];
  const coverage: Record<string, number> = {};
  const count = (what: string): void => void (coverage[what] = (coverage[what] ?? 0) + 1);
  const present = new Map<string, number>();
  let version = 0;
  /** Set for quiescence: the proxy stops interfering. */
  let calm = false;

  const write = async (): Promise<void> => {
    const ns = pick(NAMESPACES);
    const name = pick(NAMES);
    const key = `${ns}/${name}`;
    const body = (): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns, name }, data: { v: String(++version) } });
    if (!present.has(key)) {
      trace.push(`create ${key}`);
      await backend.create(body());
      present.set(key, version);
    } else if (random() < 0.3) {
      trace.push(`delete ${key}`);
      await backend.delete(ns, name);
      present.delete(key);
    } else {
      trace.push(`update ${key}`);
      await backend.update(body());
    }
  };
  const fault = async (): Promise<void> => {
    if (backend.faults.length === 0) return;
    const f = pick(backend.faults);
    trace.push(`fault ${f}`);
    count(`fault:${f}`);
    await backend.inject(f);
  };

  // The informer sees the backend through a proxy that may write or break things between list pages,
  // the only moment an in-memory backend would otherwise never expose.
  const lw: ListerWatcher = {
    list: async (listOptions, signal) => {
      if (!calm && listOptions.continue && random() < 0.4) {
        trace.push('(between list pages)');
        if (backend.faults.includes('expireContinueTokens') && random() < 0.5) {
          trace.push('fault expireContinueTokens');
          count('fault:expireContinueTokens@page');
          await backend.inject('expireContinueTokens');
        }
        if (random() < 0.7) await write();
      }
      return backend.listerWatcher.list(listOptions, signal);
    },
    watch: (watchOptions, sink, signal) => backend.listerWatcher.watch(watchOptions, sink, signal),
  };

  const informerOptions: SharedInformerOptions = {
    name: `chaos-${seed}`,
    listerWatcher: lw,
    clock,
    random,
    pageSize: 1 + Math.floor(random() * 4),
    useWatchList: random() < 0.3,
    resyncPeriodMs: random() < 0.3 ? 20_000 : 0,
    ...options.informer,
  };
  const informer = createSharedInformer(informerOptions);
  informer.onProbe((p) => count(p.kind as ProbeKind));
  informer.onProbe((p) => {
    if (p.kind === 'expired') count(`expired:${p.via}`);
  });

  const checkers: HistoryChecker[] = [];
  const handlerCalls = { n: 0 };
  const register = (name: string, async: boolean): void => {
    const c = new HistoryChecker(name, (informerOptions.resyncPeriodMs ?? 0) > 0);
    checkers.push(c);
    const wrap = <A extends unknown[]>(fn: (...args: A) => void) => (...args: A): void | Promise<void> => {
      handlerCalls.n++;
      fn(...args);
      if (async) return random() < 0.9 ? Promise.resolve() : new Promise((resolve) => setImmediate(resolve));
    };
    informer.addEventHandler(
      {
        onAdd: wrap((o: DeepReadonly<KubeObject>) => c.add(o)),
        onUpdate: wrap((old: DeepReadonly<KubeObject>, o: DeepReadonly<KubeObject>) => c.update(old, o)),
        onDelete: wrap((o: DeepReadonly<KubeObject>) => c.delete(o)),
      },
      { name },
    );
  };
  register('sync', false);
  register('async', true);
  const lateAt = Math.floor(random() * (options.steps ?? 60));

  const settle = async (): Promise<void> => {
    await backend.settle();
    await new Promise((resolve) => setImmediate(resolve));
  };

  try {
    // Some state before the informer starts.
    for (let i = Math.floor(random() * 6); i > 0; i--) await write();
    informer.run();
    const steps = options.steps ?? 60;
    for (let step = 0; step < steps; step++) {
      if (step === lateAt) register('late', random() < 0.5);
      const r = random();
      if (r < 0.55) await write();
      else if (r < 0.65) {
        trace.push('burst');
        for (let i = 2 + Math.floor(random() * 5); i > 0; i--) await write();
      } else if (r < 0.88) await fault();
      else {
        const ms = random() < 0.2 ? 31_000 : Math.floor(random() * 3000);
        trace.push(`time +${ms}ms`);
        await settle();
        clock.step(ms);
      }
      await settle();
    }

    // Quiescence: no more writes or faults; let backoffs, retries and handler buffers run out.
    trace.push('quiesce');
    calm = true;
    let problems: string[] = ['not started'];
    for (let round = 0; round < (options.maxQuiesceRounds ?? 30) && problems.length > 0; round++) {
      await settle();
      clock.step(31_000);
      await settle();
      // Async handlers may take a macrotask per notification: let their buffers run dry.
      for (let i = 0; i < 10_000 && informer.stats().handlers.some((h) => h.queued > 0); i++) await settle();
      const server = await backend.state();
      problems = [
        ...(informer.hasSynced() ? [] : ['informer never synced']),
        ...diff('cache', cacheState(informer), server),
        ...indexProblems(informer),
        ...checkers.flatMap((c) => diff(`handler ${c.name}`, c.view, server)),
        ...informer.stats().handlers.flatMap((h) => (h.queued > 0 ? [`handler ${h.name} still has ${h.queued} queued`] : [])),
      ];
    }
    const violations = checkers.flatMap((c) => c.violations);
    if (violations.length > 0) throw new ChaosFailure(seed, `inconsistent handler history:\n  ${violations.slice(0, 10).join('\n  ')}`, trace);
    if (problems.length > 0) throw new ChaosFailure(seed, `did not converge:\n  ${problems.slice(0, 10).join('\n  ')}`, trace);

    // After stop: nothing reaches a handler any more.
    const stats = informer.stats();
    informer.stop();
    const callsAtStop = handlerCalls.n;
    await write();
    await fault();
    await settle();
    clock.step(31_000);
    await settle();
    if (handlerCalls.n !== callsAtStop) throw new ChaosFailure(seed, `${handlerCalls.n - callsAtStop} handler calls after stop`, trace);
    return { seed, trace, stats, coverage };
  } catch (err) {
    if (err instanceof ChaosFailure) throw err;
    throw new ChaosFailure(seed, `threw ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, trace);
  } finally {
    informer.stop();
    await backend.close();
  }
}
