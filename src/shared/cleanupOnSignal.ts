// Runs a cleanup when the process is told to end (SIGINT, SIGTERM, SIGHUP), then lets the signal
// take its course: when no other part of the program handles it, the process ends as it would
// have without us (Node runs no 'exit' listener for a signal it does not handle, so a child we
// started would be left running). Handlers installed elsewhere still run and decide.

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Installs the cleanup; the returned function removes it (call it once the cleanup is moot). */
export function cleanupOnSignal(cleanup: () => void): () => void {
  const handlers = SIGNALS.map((signal) => {
    const handler = (): void => {
      uninstall();
      cleanup();
      // Nobody else listens: the default action (the process ends by this signal), as before.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    return [signal, handler] as const;
  });
  const uninstall = (): void => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return uninstall;
}
