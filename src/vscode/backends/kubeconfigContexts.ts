import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { kubeconfigFiles } from '../../kube/index.ts';

// The contexts a kubeconfig offers, for the "Connect to Cluster…" picker. Reads the same files
// kubectl would (explicit path, else $KUBECONFIG, else ~/.kube/config); a file that cannot be read
// (or one named by the setting that is not there) yields no contexts and a problem the picker shows
// — the sim is always offered.

export interface KubeconfigContext {
  name: string;
  cluster: string;
  namespace?: string;
  current: boolean;
  file: string;
}

export function listKubeconfigContexts(kubeconfig?: string, env: NodeJS.ProcessEnv = process.env): { contexts: KubeconfigContext[]; problems: string[] } {
  const contexts: KubeconfigContext[] = [];
  const problems: string[] = [];
  let current: string | undefined;
  const seen = new Set<string>();
  for (const file of kubeconfigFiles(kubeconfig ? { kubeconfig } : {}, env)) {
    if (!existsSync(file)) {
      // kubectl too ignores a missing default or $KUBECONFIG entry, but not a file it was given.
      if (kubeconfig) problems.push(`${file}: no such file (the controllerLab.kubeconfig setting names it)`);
      continue;
    }
    try {
      const doc = parse(readFileSync(file, 'utf8')) as { contexts?: unknown; 'current-context'?: unknown } | null;
      if (!current && typeof doc?.['current-context'] === 'string' && doc['current-context']) current = doc['current-context'];
      for (const entry of Array.isArray(doc?.contexts) ? doc.contexts : []) {
        const name = (entry as { name?: unknown })?.name;
        const ctx = (entry as { context?: { cluster?: unknown; namespace?: unknown } })?.context;
        if (typeof name !== 'string' || seen.has(name)) continue;
        seen.add(name);
        contexts.push({
          name,
          cluster: typeof ctx?.cluster === 'string' ? ctx.cluster : '',
          ...(typeof ctx?.namespace === 'string' ? { namespace: ctx.namespace } : {}),
          current: false,
          file,
        });
      }
    } catch (err) {
      problems.push(`${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  for (const c of contexts) c.current = c.name === current;
  return { contexts, problems };
}

/** A kubeconfig problem as the picker shows it: the file, and why it gave no contexts. */
export interface KubeconfigProblemRow {
  label: string;
  description: string;
  detail: string;
  file: string;
}

/** What Connect to Cluster… says above its rows, and a row per kubeconfig it could not read. */
export function connectPickerText(found: { contexts: KubeconfigContext[]; problems: string[] }): { placeHolder: string; problemRows: KubeconfigProblemRow[] } {
  const problemRows = found.problems.map((p) => {
    const at = p.indexOf(': ');
    const file = at > 0 ? p.slice(0, at) : p;
    return { label: '$(warning) Cannot read this kubeconfig', description: file, detail: at > 0 ? p.slice(at + 2).replace(/\s+/g, ' ') : p, file };
  });
  const placeHolder = found.contexts.length
    ? 'Connect to which cluster?'
    : problemRows.length
      ? 'No kubeconfig contexts: the kubeconfig could not be read (below) — the simulated cluster is always available'
      : 'No kubeconfig contexts found — the simulated cluster is always available';
  return { placeHolder, problemRows };
}
