import type { WhyTarget } from '../runtime/index.ts';

// "Why (not)?" in the Debug Console: `why`, `why default/web`, `why ConfigMap default/web`,
// `why ConfigMap default/web@1234`. Without a kind, the key is of the kind the stopped reconcile's
// controller reconciles; `why` alone asks about the stopped reconcile's own object.

export const WHY_USAGE = 'why [KIND] NAMESPACE/NAME[@RESOURCEVERSION]: whether each controller reconciled that object\'s recent changes, and why (not)';

/** A console line that asks why (answered by the reconcile debugger, even in a Go line-debugging frame). */
export function isWhyCommand(line: string): boolean {
  return /^\s*why(\s|$)/.test(line);
}

/** The console line as a why question (undefined: not one; it is evaluated as an expression). */
export function parseWhyCommand(line: string, stopped: { kind: string; key: string } | undefined, defaultKind: string | undefined): WhyTarget | undefined {
  if (!isWhyCommand(line)) return undefined;
  const words = line.trim().split(/\s+/);
  const args = words.slice(1);
  if (args.length === 0) {
    if (!stopped) throw new Error(`not stopped on a reconcile: ask about an object, ${WHY_USAGE}`);
    return { kind: stopped.kind, key: stopped.key };
  }
  if (args.length > 2) throw new Error(WHY_USAGE);
  const kind = args.length === 2 ? args[0] : (stopped?.kind ?? defaultKind);
  if (!kind) throw new Error(`which kind? ${WHY_USAGE}`);
  const [key, resourceVersion] = (args.at(-1) ?? '').split('@');
  if (!key) throw new Error(WHY_USAGE);
  return { kind, key, ...(resourceVersion ? { resourceVersion } : {}) };
}
