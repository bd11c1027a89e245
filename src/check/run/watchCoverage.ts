import type { SimClusterApi, UserWatch } from '../../sim/index.ts';

// Whether the controller has been told everything: each watch it has had in the run (by resource
// and namespace) is open again — after a restart or a relist its informers watch anew — and has
// sent every event it holds (none withheld, delayed or held for coalescing). Its watches are
// sampled as the run goes, so one that a 410 or a restart ended still counts; and what they send
// is activity, so a run does not end while the controller takes in a relist nobody reconciled yet.

const SAMPLE_MS = 50;

export class WatchCoverage {
  private readonly cluster: SimClusterApi;
  private readonly user: string;
  private readonly onDelivery: () => void;
  private readonly scopes = new Set<string>();
  private readonly timer: ReturnType<typeof setInterval>;
  private delivered = '';

  /** `onDelivery`: told when a watch of the controller's opened or sent something since the last look. */
  constructor(cluster: SimClusterApi, user: string, onDelivery: () => void) {
    this.cluster = cluster;
    this.user = user;
    this.onDelivery = onDelivery;
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  caughtUp(): boolean {
    const open = this.sample();
    if (open.some((w) => w.undelivered > 0)) return false;
    const now = new Set(open.map(scopeOf));
    return [...this.scopes].every((s) => now.has(s));
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
