import { sameView, type HandledView } from '../../controllerProtocol/index.ts';
import type { SimClusterApi, UserWatch } from '../../sim/index.ts';

// Whether the controller has been told everything: each watch its process has had (by resource
// and namespace) is open again — after a relist its informers watch anew — and has
// sent every event it holds (none withheld, delayed or held for coalescing). Its watches are
// sampled as the run goes, so one that a 410 or a restart ended still counts; and what they send
// is activity, so a run does not end while the controller takes in a relist nobody reconciled yet.
// Sent is not taken in: a loaded machine's controller may not have read it yet, or its informer be
// still handing it to its handlers. So every event handler the controller reports (handledViews.ts)
// must also have been given what the watches' scopes hold now. A view that never matches (a
// controller that watches one resource twice, in scopes apart) is waited for HANDLED_WAIT_MS once,
// then that resource counts as the cluster's side says.

const SAMPLE_MS = 50;
const HANDLED_WAIT_MS = 10_000;

/** What the controller's event handlers have been given, per resource (undefined: a host that does not say). */
export type HandledViews = () => ReadonlyMap<string, readonly HandledView[]> | undefined;

export class WatchCoverage {
  private readonly cluster: SimClusterApi;
  private readonly user: string;
  private readonly onDelivery: () => void;
  private readonly scopes = new Set<string>();
  private readonly timer: ReturnType<typeof setInterval>;
  private delivered = '';
  private readonly handled: HandledViews;
  /** Resources whose views differ from the cluster's: since when, as what (a change starts the wait again). */
  private readonly differing = new Map<string, { since: number; as: string }>();
  /** Resources whose views were waited for in vain. */
  private readonly unmatched = new Set<string>();

  /** `onDelivery`: told when a watch of the controller's opened or sent something since the last look. */
  constructor(cluster: SimClusterApi, user: string, onDelivery: () => void, handled: HandledViews = () => undefined) {
    this.cluster = cluster;
    this.user = user;
    this.onDelivery = onDelivery;
    this.handled = handled;
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  caughtUp(): boolean {
    const open = this.sample();
    if (open.some((w) => w.undelivered > 0)) return false;
    const now = new Set(open.map(scopeOf));
    return [...this.scopes].every((s) => now.has(s)) && this.handlersCaughtUp();
  }

  /** Why it has not caught up, in words a finding can give (undefined: it has). */
  notCaughtUp(): string | undefined {
    const open = this.sample();
    const behind = open.find((w) => w.undelivered > 0);
    if (behind) return `its watch of ${inWords(scopeOf(behind))} still had ${behind.undelivered} event(s) to send it`;
    const now = new Set(open.map(scopeOf));
    const closed = [...this.scopes].filter((s) => !now.has(s));
    if (closed.length) return `its watch of ${closed.map(inWords).join(', ')} never opened again`;
    return this.handlersCaughtUp() ? undefined : 'its event handlers had not taken in what its watches sent';
  }

  /**
   * A process started again (a crash plan) has synced: only what it watches counts from now on.
   * The killed one may have watched a kind the new one never reads — controller-runtime's cache
   * starts an informer on a reconcile's first Get of a kind, and a restarted controller whose
   * work is done may not get that far — and that watch would be waited for for ever.
   */
  processSynced(): void {
    this.scopes.clear();
    this.sample();
  }

  /** Resources the controller's views never matched within HANDLED_WAIT_MS (the run went on without). */
  get unmatchedResources(): ReadonlySet<string> {
    return this.unmatched;
  }

  /** Every view the controller reports of a resource it watches is the cluster's. */
  private handlersCaughtUp(): boolean {
    const handled = this.handled();
    if (!handled) return true;
    const cluster = this.cluster.watchedViewsOf(this.user);
    let caughtUp = true;
    for (const [resource, views] of handled) {
      const want = cluster.get(resource);
      if (!want || this.unmatched.has(resource) || views.every((v) => sameView(v, want))) {
        this.differing.delete(resource);
        continue;
      }
      const as = JSON.stringify([want, views]);
      const d = this.differing.get(resource);
      if (!d || d.as !== as) this.differing.set(resource, { since: performance.now(), as });
      else if (performance.now() - d.since >= HANDLED_WAIT_MS) {
        this.unmatched.add(resource);
        continue;
      }
      caughtUp = false;
    }
    return caughtUp;
  }

  /** The resources (`plural` or `plural.group`) the controller watched in the run. */
  watchedResources(): Set<string> {
    this.sample();
    return new Set([...this.scopes].map((s) => s.slice(0, s.indexOf(' '))));
  }

  close(): void {
    clearInterval(this.timer);
  }

  private sample(): UserWatch[] {
    const open = this.cluster.watchesOf(this.user);
    for (const w of open) this.scopes.add(scopeOf(w));
    const delivered = open.map((w) => `${w.id}:${w.sent}`).join(' ');
    if (delivered !== this.delivered) {
      this.delivered = delivered;
      this.onDelivery();
    }
    return open;
  }
}

const scopeOf = (w: { resource: string; namespace: string }) => `${w.resource} ${w.namespace}`;

/** `configmaps default` → `configmaps in default`; `configmaps ` → `configmaps (every namespace)`. */
const inWords = (scope: string) => {
  const [resource, namespace] = scope.split(' ');
  return namespace ? `${resource} in ${namespace}` : `${resource} (every namespace)`;
};
