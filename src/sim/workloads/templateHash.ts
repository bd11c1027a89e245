// The pod-template-hash / controller-revision-hash: FNV-32a over the template, written with the
// consonant-and-digit alphabet of apimachinery's rand.SafeEncodeString so it never spells words.
// Keys are sorted first, so the same template always gives the same hash.

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function templateHash(template: unknown, collisionCount = 0): string {
  const decimal = String(fnv32a(canonical(template) + (collisionCount ? String(collisionCount) : '')));
  let out = '';
  for (const ch of decimal) out += SAFE_ALPHABET[ch.charCodeAt(0) % SAFE_ALPHABET.length];
  return out;
}
