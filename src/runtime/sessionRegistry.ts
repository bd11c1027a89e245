// A registry of the sessions running in this process (a debug session's, or one the extension
// runs), so the views can subscribe to a controller's runtime events without knowing who started
// it. Generic over the session type so this file needs nothing from the session it lists.

type Listener<S> = (session: S) => void;

/** What the views see: the sessions running now, and those that start or end from now on. */
export interface SessionList<S> {
  /** Sessions currently running. */
  list(): S[];
  /** Called for every session that starts from now on; returns an unsubscribe function. */
  onDidStart(listener: Listener<S>): () => void;
  onDidEnd(listener: Listener<S>): () => void;
}

export interface SessionRegistry<S> {
  readonly sessions: SessionList<S>;
  register(session: S): void;
  unregister(session: S): void;
}

export function createSessionRegistry<S>(): SessionRegistry<S> {
  const running = new Set<S>();
  const startListeners = new Set<Listener<S>>();
  const endListeners = new Set<Listener<S>>();
  return {
    sessions: {
      list: () => [...running],
      onDidStart(listener) {
        startListeners.add(listener);
        return () => startListeners.delete(listener);
      },
      onDidEnd(listener) {
        endListeners.add(listener);
        return () => endListeners.delete(listener);
      },
    },
    register(session) {
      running.add(session);
      for (const l of startListeners) l(session);
    },
    unregister(session) {
      if (!running.delete(session)) return;
      for (const l of endListeners) l(session);
    },
  };
}
