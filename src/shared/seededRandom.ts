/** A small seeded PRNG (mulberry32): uids, generated names and an informer's jitter repeat for a seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An RFC 4122 version-4-shaped uuid made from `random` (for seeded, repeatable runs). */
export function uuidFrom(random: () => number): string {
  const word = (): string => Math.floor(random() * 0x100000000).toString(16).padStart(8, '0');
  const a = word();
  const b = word();
  const c = word();
  const d = word();
  const variant = ((parseInt(c[0] ?? '0', 16) & 3) | 8).toString(16);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4, 8)}${d}`;
}

/** A 32-bit seed from text (FNV-1a): the same text, the same seed, in every process. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
