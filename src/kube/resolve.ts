import type { ApiResource } from '../shared/k8s.ts';
import { qualifiedResource } from '../shared/k8s.ts';
import type { DiscoveryResult } from './discovery.ts';
import { UnknownResourceError } from './errors.ts';

// kubectl's rules for naming a resource on the command line: plural, singular, short name or kind,
// optionally qualified by group (`deployments.apps`, `widgets.example.com`) or by version and group
// (`deployments.v1.apps`). Among several matches, the group the server lists first wins, and within
// a group its preferred version — what kubectl's priority RESTMapper does.

interface Candidate {
  resource: string;
  version?: string;
  group?: string;
}

const VERSION = /^v\d+((alpha|beta)\d+)?$/;

/** Finds the resource a kubectl-style name means. Throws UnknownResourceError when none does. */
export function resolveResource(name: string, discovery: DiscoveryResult): ApiResource {
  const wanted = name.trim();
  if (!wanted) throw new UnknownResourceError(name);
  for (const candidate of candidates(wanted)) {
    const found = pick(candidate, discovery);
    if (found) return found;
  }
  throw new UnknownResourceError(name, suggestion(wanted, discovery));
}

// `a.b.c` may be resource.version.group or resource.group-with-dots; try the first when the middle
// part looks like a version (kubectl tries the fully specified form first as well).
function candidates(name: string): Candidate[] {
  const parts = name.split('.');
  const resource = parts[0] ?? '';
  if (parts.length === 1) return [{ resource }];
  const out: Candidate[] = [];
  if (parts.length >= 3 && VERSION.test(parts[1] ?? '')) out.push({ resource, version: parts[1], group: parts.slice(2).join('.') });
  out.push({ resource, group: parts.slice(1).join('.') });
  return out;
}

function matchesName(r: ApiResource, lower: string, exact: string): boolean {
  return r.resource === lower || r.singularName === lower || r.shortNames.includes(lower) || r.kind === exact || r.kind.toLowerCase() === lower;
}

function pick(c: Candidate, discovery: DiscoveryResult): ApiResource | undefined {
  const lower = c.resource.toLowerCase();
  const groupOrder = new Map(discovery.groups.map((g, i) => [g.name, i]));
  const preferred = new Map(discovery.groups.map((g) => [g.name, g.preferredVersion]));
  // Plural and singular names beat short names and kinds (kubectl matches the resource first).
  const tiers: ((r: ApiResource) => boolean)[] = [
    (r) => r.resource === lower || r.singularName === lower,
    (r) => matchesName(r, lower, c.resource),
  ];
  for (const tier of tiers) {
    const matches = discovery.resources.filter(
      (r) => tier(r) && (c.group === undefined || r.group === c.group) && (c.version === undefined || r.version === c.version),
    );
    if (matches.length === 0) continue;
    matches.sort((a, b) => rank(a) - rank(b));
    return matches[0];
  }
  return undefined;

  function rank(r: ApiResource): number {
    const group = groupOrder.get(r.group) ?? 1e6;
    return group * 2 + (preferred.get(r.group) === r.version ? 0 : 1);
  }
}

function suggestion(name: string, discovery: DiscoveryResult): string {
  const lower = name.toLowerCase().split('.')[0] ?? '';
  const near = discovery.resources.find((r) => r.resource.startsWith(lower) || (lower.length > 2 && r.resource.includes(lower)));
  return near ? ` (did you mean "${qualifiedResource(near)}"?)` : '';
}
