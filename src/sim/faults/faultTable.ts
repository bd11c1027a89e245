import { ApiError } from '../../shared/apiError.ts';
import { qualifiedResource } from '../../shared/k8s.ts';
import { convertedVersionFor } from '../resources/convertedVersions.ts';
import type { ResourceRegistry } from '../vocabulary/resourceInfo.ts';
import { duration, flag, number, oneOf, resource, revision, text, user as userArg, type Argument } from './faultArguments.ts';
import type { FaultControls, HttpFaultSettings } from './faultControls.ts';

// Every fault the simulated cluster injects, once: its name, its arguments (typed, with help) and
// what it does. The admin endpoint (/controller-lab/admin/<name>), `controller-lab sim fault
// <name> --arg value`, scenario steps (`<name>: {arg: value}`) and their help all read this table,
// so a fault has one name and one set of arguments everywhere. A new fault is one entry: its name,
// its arguments with their types and help, what it does, and how a progress line says it.
//
// A fault that can be narrowed takes its scope as arguments: a resource (drop-watches), one
// object (conflict), the paths a filter names (http-faults), the user whose watches it perturbs
// (the user a request was authenticated as, or impersonated: `controller-lab:checked`,
// `system:serviceaccount:NS:NAME`); the watches of other users go on untouched.
//
// Every fault applied through applyFault is noted in the cluster's fault history (faults.history()),
// with the resourceVersion and time it was applied.

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

const USER_HELP = 'only the watches of this user (as authenticated or impersonated; default: every watch)';

/** The user a progress line names, if any: ` for USER`. */
const forUser = (user: string | undefined): string => (user ? ` for ${user}` : '');

/** The resource a fault names, as watchers name theirs (`plural` or `plural.group`). */
const watched = (resources: ResourceRegistry, name: string | undefined): string | undefined =>
  name === undefined ? undefined : qualifiedResource(stored(resources, name));

/** An object a fault names: its stored resource and its key (`namespace/name`, default namespace `default`). */
function objectOf(resources: ResourceRegistry, resourceName: string, namespace: string | undefined, name: string) {
  const target = stored(resources, resourceName);
  const ns = target.namespaced ? namespace ?? 'default' : '';
  return { target, namespace: ns, key: ns ? `${ns}/${name}` : name };
}

export const FAULTS: readonly Fault[] = [
  fault<{ resource?: string; user?: string }>({
    name: 'drop-watches',
    help: 'end every open watch cleanly, as a dropped connection does: informers watch again from their last resourceVersion',
    args: {
      resource: { type: resource, help: 'only the watches of this resource (default: every watch)' },
      user: { type: userArg, help: USER_HELP },
    },
    shorthand: 'resource',
    describe: ({ resource, user }) => `drop watches${resource ? ` (${resource})` : ''}${forUser(user)}`,
    apply: ({ faults, resources }, { resource, user }) => ({ dropped: faults.dropWatches(watched(resources, resource), user) }),
  }),
  fault<{ resource?: string; user?: string; discardWithheld?: boolean }>({
    name: 'expire-watches',
    help: 'end every open watch with the 410 Expired event a resume from a compacted resourceVersion gets: informers relist. What a watch holds back goes out first, unless discarded',
    args: {
      resource: { type: resource, help: 'only the watches of this resource (default: every watch)' },
      user: { type: userArg, help: USER_HELP },
      discardWithheld: { type: flag, help: 'drop the events those watches hold back (withheld, delayed, coalesced) instead: the client never sees those states, only what its relist shows' },
    },
    shorthand: 'resource',
    describe: ({ resource, user, discardWithheld }) => `expire watches${resource ? ` (${resource})` : ''}${forUser(user)}${discardWithheld ? ', discarding what they hold' : ''}`,
    apply: ({ faults, resources }, { resource, user, discardWithheld }) => ({ expired: faults.expireWatches({ resource: watched(resources, resource), user, discardWithheld }) }),
  }),
  fault<{ resourceVersion?: number | 'now' }>({
    name: 'compact',
    help: 'drop the watch history before a resourceVersion: a watch resuming from before it gets 410 Expired and relists',
    args: { resourceVersion: { type: revision, help: 'compact up to here (default: now)' } },
    shorthand: 'resourceVersion',
    describe: ({ resourceVersion }) => `compact history${resourceVersion !== undefined && resourceVersion !== 'now' ? ` at rv ${resourceVersion}` : ''}`,
    apply: ({ faults }, { resourceVersion }) => ({ compactedResourceVersion: String(faults.compact(resourceVersion ?? 'now')) }),
  }),
  fault<{ ms: number; user?: string }>({
    name: 'delay-events',
    help: 'delay every watch event and bookmark (0 turns the delay off)',
    args: { ms: { type: duration(600_000), help: 'how long', required: true }, user: { type: userArg, help: USER_HELP } },
    shorthand: 'ms',
    describe: ({ ms, user }) => `delay events by ${ms}ms${forUser(user)}`,
    apply: ({ faults }, { ms, user }) => (faults.delayEvents(ms, user), OK),
  }),
  fault<{ user?: string }>({
    name: 'withhold-events',
    help: 'hold watch events back, in order, until release-events',
    args: { user: { type: userArg, help: USER_HELP } },
    describe: ({ user }) => `withhold watch events${forUser(user)}`,
    apply: ({ faults }, { user }) => (faults.withholdEvents(user), OK),
  }),
  fault<{ user?: string }>({
    name: 'release-events',
    help: 'deliver the watch events held back, in order',
    args: { user: { type: userArg, help: "only this user's hold (a hold on every watch stays; default: every hold)" } },
    describe: ({ user }) => `release watch events${forUser(user)}`,
    apply: ({ faults }, { user }) => (faults.releaseEvents(user), OK),
  }),
  fault<{ user: string; resource: string; namespace?: string; name: string; count?: number; releaseAfter?: number }>({
    name: 'coalesce-events',
    help: "hide states of one object from one user's watches: its next event is held, and when a later event of the object comes only the latest is sent",
    args: {
      user: { type: userArg, help: 'whose watches', required: true },
      resource: { type: resource, help: "the object's resource", required: true },
      namespace: { type: text, help: "the object's namespace (default: default, for a namespaced resource)" },
      name: { type: text, help: "the object's name", required: true },
      count: { type: number(1, 1000), help: 'how many events are held, one after the other (default: 1)' },
      releaseAfter: { type: duration(600_000), help: 'a held event nothing replaces is sent as it is after this (default: 30s)' },
    },
    describe: ({ user, resource, namespace, name, count }) =>
      `coalesce ${count && count > 1 ? `${count} events` : 'the next event'} of ${resource} ${namespace ? `${namespace}/` : ''}${name}${forUser(user)}`,
    apply: ({ faults, resources }, { user, resource, namespace, name, count, releaseAfter }) => {
      const { target, key } = objectOf(resources, resource, namespace, name);
      faults.coalesceEvents({ user, resource: qualifiedResource(target), key, count: count ?? 1, releaseAfterMs: releaseAfter ?? 30_000 });
      return OK;
    },
  }),
  fault<{ user: string; resourceVersion: number | 'now'; forMs: number }>({
    name: 'stale-view',
    help: 'for a while, answer one user as a lagging API server would: its lists as of an older resourceVersion (410 if compacted past it), its watch events withheld until the window ends',
    args: {
      user: { type: userArg, help: 'whose view lags', required: true },
      resourceVersion: { type: revision, help: 'where its view stands (now: where the cluster is now)', required: true },
      forMs: { type: duration(600_000), help: 'how long the window lasts', required: true },
    },
    describe: ({ user, resourceVersion, forMs }) => `stale view at rv ${resourceVersion} for ${forMs}ms${forUser(user)}`,
    apply: ({ faults, resourceVersion: latest }, { user, resourceVersion, forMs }) => {
      const rv = resourceVersion === 'now' ? latest : resourceVersion;
      if (rv > latest) throw new ApiError(400, `resourceVersion ${rv} is newer than the cluster's (${latest})`, 'BadRequest');
      faults.staleView(user, rv, forMs);
      return { resourceVersion: String(rv) };
    },
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
      const object = objectOf(resources, resource, namespace, name);
      faults.conflictNextUpdate(object.target, object.namespace, name);
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
    help: "turn the delays, held events and bookmarks, coalescing, stale views and HTTP faults off (every user's too)",
    args: {},
    describe: () => 'turn the faults off',
    apply: ({ faults }) => {
      faults.reset();
      return { faults: faults.state() };
    },
  }),
];

const BY_NAME = new Map(FAULTS.map((f) => [f.name, f]));

/** The fault of this name, or undefined. */
export function faultNamed(name: string): Fault | undefined {
  return BY_NAME.get(name);
}

/** Applies a fault (its arguments as the table read them) and notes it in the fault history. */
export function applyFault(target: FaultTarget, fault: Fault, args: Record<string, unknown>): Record<string, unknown> {
  const resourceVersion = target.resourceVersion;
  const answer = fault.apply(target, args);
  target.faults.recordApplied(fault.name, args, resourceVersion);
  return answer;
}
