/** `850ms`, `2.5s`, `42s`: a duration as the tree and the timeline print it. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
}
