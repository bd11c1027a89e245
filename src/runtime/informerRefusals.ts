import type { Probe } from '../informer/index.ts';

// Which resources the cluster refuses to let a controller's informers list or watch (RBAC's 403),
// for "why not?": from informer error probes (the TypeScript host's informers, and a Go program's
// HTTP client, see go/controllerlab/refusals.go), and from what a Go program prints (client-go's
// reflector logs `… is forbidden: User "…" cannot list resource "secrets" in API group "" …` when
// the program sets a logger). An informer that synced since is no longer refused.

const REFUSAL = /cannot (?:list|watch) resource \\?"([^"\\]+)\\?" in API group \\?"([^"\\]*)\\?"/g;

/** `configmaps`, `deployments.apps`: a resource as informers are named (without `@namespace`). */
const resourceName = (resource: string, group: string) => (group ? `${resource}.${group}` : resource);

export class InformerRefusals {
  private readonly refused = new Map<string, string>();

  probe(probe: Probe): void {
    const resource = probe.informer.replace(/@.*$/, '');
    if (probe.kind === 'synced') this.refused.delete(resource);
    else if (probe.kind === 'error' && probe.code === 403) this.refused.set(resource, probe.message);
  }

  output(text: string): void {
    if (!text.includes('forbidden')) return;
    for (const line of text.split('\n')) {
      for (const [, resource, group] of line.matchAll(REFUSAL)) this.refused.set(resourceName(resource ?? '', group ?? ''), line.trim());
    }
  }

  /** The refusal of the informer for this kind, if any (its resource is guessed from the kind's plural). */
  refusalOf(kind: string, apiVersion?: string): string | undefined {
    const group = apiVersion?.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    const lower = kind.toLowerCase();
    const plurals = [`${lower}s`, `${lower}es`, lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : lower];
    for (const plural of plurals) {
      const found = this.refused.get(resourceName(plural, group));
      if (found) return found;
    }
    if (apiVersion !== undefined) return undefined;
    for (const [resource, message] of this.refused) if (plurals.includes(resource.split('.')[0] ?? '')) return message;
    return undefined;
  }
}
