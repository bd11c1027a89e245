import type { TimerHandle } from '../../shared/clock.ts';
import type { InProcessCluster } from '../simObjects.ts';
import { GVR } from './objectAccess.ts';

// Events expire, as kube-apiserver's --event-ttl (1 h) has etcd expire them: an Event goes once
// that long has passed since it was last written (a count raised is a write), whatever times its
// fields hold. Without this, the Events every controller and kubelet records would pile up for as
// long as the cluster runs.

export const EVENT_TTL_MS = 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 1000;

export interface EventTtlOptions {
  ttlMs?: number;
  sweepIntervalMs?: number;
  onError?: (err: unknown) => void;
}

export class EventTtl {
  private readonly cluster: InProcessCluster;
  private readonly ttlMs: number;
  private readonly sweepIntervalMs: number;
  private readonly onError: (err: unknown) => void;
  /** namespace/name → when it was last written (Events kept from before a restart: from the start). */
  private readonly writtenAt = new Map<string, number>();
  private unsubscribe: (() => void) | undefined;
  private timer: TimerHandle | undefined;
  private stopped = false;

  constructor(cluster: InProcessCluster, options: EventTtlOptions = {}) {
    this.cluster = cluster;
    this.ttlMs = options.ttlMs ?? EVENT_TTL_MS;
    this.sweepIntervalMs = options.sweepIntervalMs ?? SWEEP_INTERVAL_MS;
    this.onError = options.onError ?? (() => {});
  }

  start(): void {
    this.unsubscribe = this.cluster.onWrite((write) => {
      if (write.group !== '' || write.resource !== 'events') return;
      if (write.type === 'DELETED') this.writtenAt.delete(write.key);
      else this.writtenAt.set(write.key, this.cluster.clock.now());
    });
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.unsubscribe?.();
  }

  /** Deletes every Event last written more than the TTL ago; answers how many went. */
  sweep(): number {
    const now = this.cluster.clock.now();
    let expired = 0;
    try {
      for (const { object } of this.cluster.list(GVR.events, { namespace: '' }).items) {
        const namespace = object.metadata.namespace ?? '';
        const name = object.metadata.name ?? '';
        const key = `${namespace}/${name}`;
        const at = this.writtenAt.get(key);
        if (at === undefined) this.writtenAt.set(key, now);
        if (at === undefined || now - at < this.ttlMs) continue;
        try {
          this.cluster.delete(GVR.events, namespace, name, { preconditions: { resourceVersion: object.metadata.resourceVersion } });
          expired++;
        } catch {
          // Written again meanwhile, or already gone: the next sweep looks again.
        }
      }
    } catch (err) {
      this.onError(err);
    }
    return expired;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.cluster.clock.setTimer(this.sweepIntervalMs, () => {
      this.sweep();
      this.schedule();
    });
  }
}
