import type { ListerWatcher, ListOptions, WatchHandle, WatchOptions, WatchSink } from '../informer/index.ts';
import type { KubeList, KubeObject, WatchEvent } from '../shared/k8s.ts';

// Sees what the informer is fed — list pages and watch events exactly as the server sent them —
// without changing it. `controller-lab watch -o jsonl` prints through this.

export interface Tap {
  listed?(list: KubeList): void;
  event?(event: WatchEvent): void;
}

export function tapListerWatcher(inner: ListerWatcher, tap: Tap): ListerWatcher {
  return {
    async list(options: ListOptions, signal?: AbortSignal): Promise<KubeList> {
      const list = await inner.list(options, signal);
      tap.listed?.(list);
      return list;
    },
    watch(options: WatchOptions, sink: WatchSink, signal?: AbortSignal): Promise<WatchHandle> {
      return inner.watch(
        options,
        {
          event: (ev: WatchEvent<KubeObject>) => {
            tap.event?.(ev);
            sink.event(ev);
          },
          close: (err?: Error) => sink.close(err),
        },
        signal,
      );
    },
  };
}
