import type { KubeObject } from '../../shared/k8s.ts';
import { plainId, type GeneratedPrefix, type Identified } from './identity.ts';

// A generated name is not state: a run that made `web-x7k2p` where the reference made `web-abc12`
// made the same object (the scenario's seed fixes the names only while every run creates in the
// same order, and a perturbed run does not). So before two runs are compared, each generated name
// — the object's own, and wherever a value names it: an owner reference, an annotation that
// records a child — is replaced by the object's identity, and what the names stand for is compared.

/** The same objects, each a copy whose generated names read `<identity>`. */
export function canonicalNames(objects: Identified, generated: GeneratedPrefix): Identified {
  const names = new Map<string, string>();
  // Generated names, and names made from them (known by an identity that is not the name).
  for (const [id, o] of objects) if ((generated(o) !== undefined || id !== plainId(o)) && o.metadata.name) names.set(o.metadata.name, `<${id}>`);
  if (names.size === 0) return objects;
  // Longest first, so a name that extends another is replaced whole; only where it stands alone.
  const alternatives = [...names.keys()].sort((a, b) => b.length - a.length).map(escape).join('|');
  // A trailing dash is no longer name: a generateName made from a name (`web-x7k2p-`) is renamed too.
  const pattern = new RegExp(`(?<![A-Za-z0-9.-])(?:${alternatives})(?![A-Za-z0-9.]|-[A-Za-z0-9.])`, 'g');
  const rename = (s: string) => s.replace(pattern, (name) => names.get(name) ?? name);
  const out: Identified = new Map();
  for (const [id, o] of objects) out.set(id, renamed(o, rename) as KubeObject);
  return out;
}

function renamed(value: unknown, rename: (s: string) => string): unknown {
  if (typeof value === 'string') return rename(value);
  if (Array.isArray(value)) return value.map((v) => renamed(v, rename));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[rename(k)] = renamed(v, rename);
    return out;
  }
  return value;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
