import type { Clock } from '../../shared/clock.ts';
import type { WatchObserver } from './watcher.ts';
import type { ClientIdentity, ClientInfo, ClientInsight, ClientWatchInfo } from './types.ts';

// Who talks to the simulated cluster and what they do: per client (user agent + credential),
// recent lists, every watch with what it was sent, and recent writes. Bounded: a client keeps the
// last RECENT lists/writes and its open watches plus the last RECENT closed ones; at most
// MAX_CLIENTS clients are kept, and a new one evicts the one seen longest ago (preferring clients
// with no open watch), so a stream of made-up user agents cannot grow it.

const RECENT = 20;

/** Distinct clients kept. */
export const MAX_CLIENTS = 200;

/** Clients looked at, oldest first, for one with no open watch to evict. */
const EVICTION_SCAN = 50;

export class ClientRegistry implements ClientInsight {
  private readonly byId = new Map<string, ClientInfo>();
  private readonly listeners = new Set<() => void>();
  private readonly clock: Clock;
  private notifyScheduled = false;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  clients(): ClientInfo[] {
    return [...this.byId.values()].map((c) => ({
      ...c,
      recentLists: [...c.recentLists],
      watches: c.watches.map((w) => ({ ...w })),
      recentWrites: [...c.recentWrites],
    }));
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  recordError(client: ClientIdentity, _verb: string, _resource: string, _code: number): void {
    this.client(client).errors++;
    this.changed();
  }

  recordList(client: ClientIdentity, resource: string, resourceVersion: string, items: number, limit?: number): void {
    const c = this.client(client);
    c.lists++;
    push(c.recentLists, { resource, at: this.clock.now(), resourceVersion, items, ...(limit ? { limit } : {}) });
    this.changed();
  }

  recordWrite(client: ClientIdentity, verb: string, resource: string, key: string, resourceVersion: string, code: number): void {
    const c = this.client(client);
    if (code < 400) c.writes++;
    else c.errors++;
    push(c.recentWrites, { at: this.clock.now(), verb, resource, key, resourceVersion, code });
    this.changed();
  }

  /** Registers a watch; the observer keeps its counters current. */
  recordWatch(client: ClientIdentity, id: number, resource: string, namespace: string, labelSelector: string, fieldSelector: string, fromRv: string): WatchObserver {
    const c = this.client(client);
    const info: ClientWatchInfo = {
      id, resource, namespace, labelSelector, fieldSelector, startedAt: this.clock.now(),
      lastResourceVersion: fromRv, events: 0, bookmarks: 0, open: true,
    };
    c.watches.push(info);
    this.trimWatches(c);
    this.changed();
    return {
      sent: (event) => {
        if (event.type === 'BOOKMARK') info.bookmarks++;
        else info.events++;
        const rv = event.object.metadata?.resourceVersion;
        if (rv && event.type !== 'ERROR') info.lastResourceVersion = rv;
        c.lastSeen = this.clock.now();
        this.changed();
      },
      closed: (reason) => {
        info.open = false;
        info.closeReason = reason;
        this.trimWatches(c);
        this.changed();
      },
    };
  }

  private client(id: ClientIdentity): ClientInfo {
    const key = id.user ? `${id.userAgent}|${id.tokenId}|${id.user}` : `${id.userAgent}|${id.tokenId}`;
    let c = this.byId.get(key);
    const now = this.clock.now();
    if (c) {
      // Map order is recency order: the first entry is the client seen longest ago.
      this.byId.delete(key);
    } else {
      if (this.byId.size >= MAX_CLIENTS) this.evictOne();
      c = { id: key, userAgent: id.userAgent, tokenId: id.tokenId, ...(id.user ? { user: id.user } : {}), firstSeen: now, lastSeen: now, lists: 0, recentLists: [], watches: [], writes: 0, recentWrites: [], errors: 0 };
    }
    this.byId.set(key, c);
    c.lastSeen = now;
    return c;
  }

  private evictOne(): void {
    let oldest: string | undefined;
    let scanned = 0;
    for (const [key, c] of this.byId) {
      oldest ??= key;
      if (!c.watches.some((w) => w.open)) {
        this.byId.delete(key);
        return;
      }
      if (++scanned >= EVICTION_SCAN) break;
    }
    if (oldest !== undefined) this.byId.delete(oldest);
  }

  private trimWatches(c: ClientInfo): void {
    const closed = c.watches.filter((w) => !w.open);
    if (closed.length <= RECENT) return;
    const drop = new Set(closed.slice(0, closed.length - RECENT));
    c.watches = c.watches.filter((w) => !drop.has(w));
  }

  // Change notifications are coalesced per microtask: a burst of events is one notification.
  private changed(): void {
    if (this.notifyScheduled || this.listeners.size === 0) return;
    this.notifyScheduled = true;
    queueMicrotask(() => {
      this.notifyScheduled = false;
      for (const l of [...this.listeners]) l();
    });
  }
}

function push<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > RECENT) list.splice(0, list.length - RECENT);
}
