// A minimal event emitter whose event names and payloads are checked by the compiler
// (vscode-mock-debug's runtime uses string events; a typed map catches a renamed event at build time).

export type EventMap = Record<string, unknown>;
export type Listener<T> = (payload: T) => void;

export interface Subscription {
  dispose(): void;
}

export class TypedEmitter<E extends EventMap> {
  private readonly listeners = new Map<keyof E, Set<Listener<never>>>();

  on<K extends keyof E>(event: K, listener: Listener<E[K]>): Subscription {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return { dispose: () => set.delete(listener as Listener<never>) };
  }

  once<K extends keyof E>(event: K, listener: Listener<E[K]>): Subscription {
    const sub = this.on(event, (payload) => {
      sub.dispose();
      listener(payload);
    });
    return sub;
  }

  /** A listener that throws is isolated: the others still run, and the emitter keeps working. */
  protected emit<K extends keyof E>(event: K, payload: E[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const l of [...set]) {
      try {
        (l as Listener<E[K]>)(payload);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  removeAllListeners(): void {
    this.listeners.clear();
  }
}
