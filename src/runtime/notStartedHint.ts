// A controller that has not said it is ready is stuck before its informers start, so "the
// informers have not synced" alone does not say where: a Go program that never reaches mgr.Start,
// a TypeScript module whose top-level code never ends (an await on something that never settles,
// which no heartbeat check catches since it idles), or a cluster that does not answer discovery.

/** What to look at when a controller's sync is awaited but it has not started; `loaded`: its TypeScript module said it loaded. */
export function notStartedHint(language: 'go' | 'typescript', loaded: boolean): string {
  if (language === 'go') return 'no controller has started yet; does the program reach mgr.Start(ctx)?';
  if (!loaded) return 'the controller module has not finished loading; does its top-level code await something that never settles?';
  return 'the controller has loaded but the cluster has not answered its API discovery (a server that does not answer, or a credential plugin that does not return)';
}
