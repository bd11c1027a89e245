import { ApiError } from '../../shared/apiError.ts';
import { qualifiedResource } from '../../shared/k8s.ts';
import { convertedVersionFor } from '../resources/convertedVersions.ts';
import type { ResourceRegistry } from '../vocabulary/resourceInfo.ts';
import { duration, flag, number, oneOf, resource, revision, text, type Argument } from './faultArguments.ts';
import type { FaultControls, HttpFaultSettings } from './faultControls.ts';

// Every fault the simulated cluster injects, once: its name, its arguments (typed, with help) and
// what it does. The admin endpoint (/controller-lab/admin/<name>), `controller-lab sim fault
// <name> --arg value`, scenario steps (`<name>: {arg: value}`) and their help all read this table,
// so a fault has one name and one set of arguments everywhere. A new fault is one entry: its name,
// its arguments with their types and help, what it does, and how a progress line says it.
//
// A fault that can be narrowed takes its scope as arguments: a resource (drop-watches), one
// object (conflict), the paths a filter names (http-faults).

/** What a fault acts on: the cluster's fault switches, and what resolves the resources faults name. */
export interface FaultTarget {
  readonly faults: FaultControls;
  readonly resources: ResourceRegistry;
  /** The latest resourceVersion, for the answers that report it. */
  readonly resourceVersion: number;
  /** Told after a restart (the HTTP server also drops its idle connections then). */
  readonly restarted?: () => void;
}

export interface Fault<A extends object = Record<string, unknown>> {
  /** The one name: the admin action, the CLI's `sim fault <name>`, the scenario step's key. */
  readonly name: string;
  /** What it does, in one line. */
  readonly help: string;
  /** Its arguments by name (camelCase; the CLI's flags are the kebab-case of these). */
  readonly args: { readonly [K in keyof A]-?: Argument<Exclude<A[K], undefined>> };
  /** The argument a scenario step may give alone: `compact: now`, `delay-events: 500ms`. */
  readonly shorthand?: keyof A & string;
  /** Does it; answers what the admin endpoint sends back. */
  apply(target: FaultTarget, args: A): Record<string, unknown>;
  /** What a scenario's progress line says as it runs (`drop watches (deployments.apps)`). */
  describe(args: A): string;
}

/** Entries keep their own argument types; the table holds them alike. */
const fault = <A extends object>(f: Fault<A>): Fault => f as unknown as Fault;

const OK = { ok: true };

/**
 * Where the objects of the resource a fault names are stored, as served now (a version served by
 * conversion, events.k8s.io's Events, is stored as core Events); 404 in kubectl's words when none is.
 */
function stored(resources: ResourceRegistry, name: string): { group: string; resource: string; namespaced: boolean } {
  const info = resources.resolveName(name);
  if (!info) throw new ApiError(404, `the server doesn't have a resource type "${name}"`, 'NotFound');
  const converted = info.source === 'builtin' ? convertedVersionFor(info)?.stored : undefined;
  return converted ? { ...converted, namespaced: info.namespaced } : info;
}

export const FAULTS: readonly Fault[] = [
  fault<{ resource?: string }>({
    name: 'drop-watches',
    help: 'end every open watch cleanly, as a dropped connection does: informers watch again from their last resourceVersion',
    args: { resource: { type: resource, help: 'only the watches of this resource (default: every watch)' } },
    shorthand: 'resource',
    describe: ({ resource }) => `drop watches${resource ? ` (${resource})` : ''}`,
    apply: ({ faults, resources }, { resource }) => ({ dropped: faults.dropWatches(resource === undefined ? undefined : qualifiedResource(stored(resources, resource))) }),
  }),
  fault<{ resourceVersion?: number | 'now' }>({
    name: 'compact',
    help: 'drop the watch history before a resourceVersion: a watch resuming from before it gets 410 Expired and relists',
    args: { resourceVersion: { type: revision, help: 'compact up to here (default: now)' } },
    shorthand: 'resourceVersion',
    describe: ({ resourceVersion }) => `compact history${resourceVersion !== undefined && resourceVersion !== 'now' ? ` at rv ${resourceVersion}` : ''}`,
    apply: ({ faults }, { resourceVersion }) => ({ compactedResourceVersion: String(faults.compact(resourceVersion ?? 'now')) }),
  }),
  fault<{ ms: number }>({
    name: 'delay-events',
    help: 'delay every watch event and bookmark (0 turns the delay off)',
    args: { ms: { type: duration(600_000), help: 'how long', required: true } },
    shorthand: 'ms',
    describe: ({ ms }) => `delay events by ${ms}ms`,
    apply: ({ faults }, { ms }) => (faults.delayEvents(ms), OK),
  }),
  fault({
    name: 'withhold-events',
    help: 'hold watch events back, in order, until release-events',
    args: {},
    describe: () => 'withhold watch events',
    apply: ({ faults }) => (faults.withholdEvents(), OK),
  }),
  fault({
    name: 'release-events',
    help: 'deliver the watch events held back, in order',
    args: {},
    describe: () => 'release watch events',
    apply: ({ faults }) => (faults.releaseEvents(), OK),
  }),
  fault({
    name: 'withhold-bookmarks',
    help: 'send no bookmarks until release-bookmarks',
    args: {},
    describe: () => 'withhold bookmarks',
    apply: ({ faults }) => (faults.withholdBookmarks(), OK),
  }),
  fault({
    name: 'release-bookmarks',
    help: 'send bookmarks again',
    args: {},
    describe: () => 'release bookmarks',
    apply: ({ faults }) => (faults.releaseBookmarks(), OK),
  }),
  fault<{ resource: string; namespace?: string; name: string }>({
    name: 'conflict',
    help: 'the next update, patch or delete of one object answers 409 Conflict (once)',
    args: {
      resource: { type: resource, help: "the object's resource", required: true },
      namespace: { type: text, help: "the object's namespace (default: default, for a namespaced resource)" },
      name: { type: text, help: "the object's name", required: true },
    },
    describe: ({ resource, namespace, name }) => `conflict on the next update of ${resource} ${namespace ? `${namespace}/` : ''}${name}`,
    apply: ({ faults, resources }, { resource, namespace, name }) => {
      const target = stored(resources, resource);
      faults.conflictNextUpdate(target, target.namespaced ? namespace ?? 'default' : '', name);
      return OK;
    },
  }),
  fault<Partial<HttpFaultSettings>>({
    name: 'http-faults',
    help: 'answer a share of requests with 429 or 500 instead of serving them, or add latency; settings not given stay as they are',
    args: {
      errorRate: { type: number(0, 1), help: 'the share of requests refused, 0 to 1' },
      errorCode: { type: oneOf([429, 500] as const), help: 'what they are refused with (429 with Retry-After)' },
      retryAfterSeconds: { type: number(0, 3600), help: 'the Retry-After of a 429' },
      latencyMs: { type: duration(600_000), help: 'added before every answer' },
      pathFilter: { type: text, help: "only paths containing this ('': every path)" },
    },
    describe: ({ errorRate, errorCode, latencyMs, pathFilter }) => {
      const parts: string[] = [];
      if (errorRate !== undefined) parts.push(`answer ${Math.round(errorRate * 100)}% of requests${errorCode ? ` with ${errorCode}` : ''}`);
      if (latencyMs !== undefined) parts.push(`add ${latencyMs}ms of latency`);
      return `${parts.join(' and ') || 'set the HTTP faults'}${pathFilter ? ` on paths with ${pathFilter}` : ''}`;
    },
    apply: ({ faults }, settings) => {
      faults.setHttp(settings);
      return { http: faults.state().http };
    },
  }),
  fault<{ dropHistory?: boolean }>({
    name: 'restart',
    help: 'restart keeping the state: every watch and idle connection ends, resourceVersions keep rising',
    args: { dropHistory: { type: flag, help: 'also forget the watch history, as a fresh watch cache does: resumes get 410 Expired' } },
    describe: ({ dropHistory }) => `restart the API server${dropHistory ? ' (history dropped)' : ''}`,
    apply: (target, { dropHistory }) => {
      target.faults.restart({ dropHistory: dropHistory === true });
      target.restarted?.();
      return { resourceVersion: String(target.resourceVersion) };
    },
  }),
  fault({
    name: 'reset',
    help: 'turn the delay, held events and bookmarks, and HTTP faults off',
    args: {},
    describe: () => 'turn the faults off',
    apply: ({ faults }) => {
      faults.delayEvents(0);
      faults.releaseEvents();
      faults.releaseBookmarks();
      faults.setHttp({ errorRate: 0, latencyMs: 0, pathFilter: '' });
      return { faults: faults.state() };
    },
  }),
];

const BY_NAME = new Map(FAULTS.map((f) => [f.name, f]));

/** The fault of this name, or undefined. */
export function faultNamed(name: string): Fault | undefined {
  return BY_NAME.get(name);
}
