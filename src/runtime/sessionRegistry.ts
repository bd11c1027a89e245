import type { ControllerSession } from './controllerSession.ts';

// Every controller session running in this process (a debug session's, or one the extension runs),
// so the views can subscribe to a controller's runtime events without knowing who started it.

type Listener = (session: ControllerSession) => void;

const sessions = new Set<ControllerSession>();
const startListeners = new Set<Listener>();
const endListeners = new Set<Listener>();

export const controllerSessions = {
  /** Sessions currently running. */
  list(): ControllerSession[] {
    return [...sessions];
  },
  /** Called for every session that starts from now on; returns an unsubscribe function. */
  onDidStart(listener: Listener): () => void {
    startListeners.add(listener);
    return () => startListeners.delete(listener);
  },
  onDidEnd(listener: Listener): () => void {
    endListeners.add(listener);
    return () => endListeners.delete(listener);
  },
};

export function registerSession(session: ControllerSession): void {
  sessions.add(session);
  for (const l of startListeners) l(session);
}

export function unregisterSession(session: ControllerSession): void {
  if (!sessions.delete(session)) return;
  for (const l of endListeners) l(session);
}
