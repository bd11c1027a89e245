// A controller that has not said it is ready is stuck before its informers start, so "the
// informers have not synced" alone points at the cluster when the cause is the program: a Go
// program that never reaches mgr.Start, or a TypeScript module whose top-level code never ends
// (an await on something that never settles), which no heartbeat check catches since it idles.

/** What to look at when a controller's sync is awaited but it has not started. */
export function notStartedHint(language: 'go' | 'typescript'): string {
  return language === 'go'
    ? 'no controller has started yet; does the program reach mgr.Start(ctx)?'
    : 'the controller module has not finished loading; does its top-level code await something that never settles?';
}
