// resourceVersions are opaque strings to clients; etcd-backed servers (and the simulated cluster)
// use decimal revisions, so those compare numerically. Anything else compares as text.

export function compareResourceVersions(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
