// The timeline webview's protocol: every message between the host (src/vscode/timeline) and the
// webview app (webview/timeline). Shapes follow GitLens: commands (webview → host, fire and forget),
// requests with a correlated id answered by a response, and notifications (host → webview). The host
// posts nothing until the webview sent `ready`. This file is plain data + guards: both sides import it.

/**
 * Watch event types plus the informer's own markers (a relist, a 410 Expired), what was done to
 * a controller's run from outside (a check finding's perturbation, replayed in the debugger), and
 * a controller's misses: an event that reached it and enqueued nothing (its note says why).
 */
export const TIMELINE_EVENT_TYPES = ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR', 'RELIST', 'EXPIRED', 'PERTURBATION', 'MISSED'] as const;
export type TimelineEventType = (typeof TIMELINE_EVENT_TYPES)[number];

/** One marker on the timeline. Objects are not sent; details are requested on selection. */
export interface TimelineEvent {
  /** Host-assigned, strictly increasing; the ring evicts the lowest first. */
  seq: number;
  /** Milliseconds since the epoch. */
  at: number;
  /** The informer's id (e.g. `configmaps` or `deployments.apps@default`). */
  informer: string;
  /** The resource's plural (`configmaps`, `deployments.apps`). */
  resource: string;
  /** '' for cluster-scoped objects and for informer-level markers. */
  namespace: string;
  /** '' for informer-level markers (BOOKMARK, ERROR, RELIST, EXPIRED). */
  name: string;
  type: TimelineEventType;
  resourceVersion: string;
  /** The object's kind (`ConfigMap`), when the sender knows it; lanes are named with it. */
  kind?: string;
  /**
   * Whose view of which cluster: the lab's cluster label (`Simulated cluster`, a context name) or a
   * controller's own cache. Lanes of different clusters never merge; names carry it when several show.
   */
  cluster?: string;
  /** What the marker says on hover and in its details (a perturbation: what was done). */
  note?: string;
}

/** The resource of a controller's lane of perturbations (one per controller, next to its informers' own). */
export const PERTURBATIONS = 'perturbations';

/** A line of a line diff: kept (' '), added ('+') or removed ('-'). */
export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
}

export interface EventDetails {
  event: TimelineEvent;
  /** The object's YAML at this event (redacted), when the host still has it. */
  yaml?: string;
  /** The resourceVersion of the previous version the diff is against. */
  previousResourceVersion?: string;
  /** Line diff previous → this version; undefined when there is nothing to compare. */
  diff?: DiffLine[];
  /** Why there is no diff or YAML (evicted, first version, informer-level marker). */
  note?: string;
}

export interface FocusTarget {
  resource?: string;
  namespace?: string;
  name?: string;
}

// ---- message kinds --------------------------------------------------------------------------------

interface MessageType<Kind extends string, Method extends string, Params> {
  readonly kind: Kind;
  readonly method: Method;
  /** Phantom: carries the params type; never set at run time. */
  readonly _params?: Params;
}

export type CommandType<M extends string, P> = MessageType<'command', M, P>;
export type NotificationType<M extends string, P> = MessageType<'notification', M, P>;
export interface RequestType<M extends string, P, R> extends MessageType<'request', M, P> {
  readonly _result?: R;
}

export interface CommandMessage<P = unknown> { kind: 'command'; method: string; params: P }
export interface NotificationMessage<P = unknown> { kind: 'notification'; method: string; params: P }
export interface RequestMessage<P = unknown> { kind: 'request'; id: number; method: string; params: P }
export interface ResponseMessage<R = unknown> { kind: 'response'; id: number; method: string; result?: R; error?: string }

function type<K extends 'command' | 'notification', M extends string, P>(kind: K, method: M): MessageType<K, M, P> {
  return { kind, method };
}

// webview → host
export const ReadyCommand = type<'command', 'timeline/ready', Record<string, never>>('command', 'timeline/ready');
export const OpenObjectCommand = type<'command', 'timeline/openObject', { seq: number }>('command', 'timeline/openObject');
export const CompareObjectCommand = type<'command', 'timeline/compareObject', { seq: number }>('command', 'timeline/compareObject');
/** "Why (not)?" on an event: whether each running controller reconciled that change, and why not. */
export const WhyCommand = type<'command', 'timeline/why', { seq: number }>('command', 'timeline/why');
export const ClearCommand = type<'command', 'timeline/clear', Record<string, never>>('command', 'timeline/clear');
export const EventDetailsRequest: RequestType<'timeline/eventDetails', { seq: number }, EventDetails> = {
  kind: 'request',
  method: 'timeline/eventDetails',
};

// host → webview
export interface ResetParams {
  events: TimelineEvent[];
  maxEvents: number;
  /** The host's clock when sent (follow mode anchors on it when no event is newer). */
  now: number;
}
export interface AppendParams {
  events: TimelineEvent[];
  /** Events with seq ≤ this were evicted from the host's ring; drop them. -1: none. */
  evictedThroughSeq: number;
  now: number;
}
export const ResetNotification = type<'notification', 'timeline/reset', ResetParams>('notification', 'timeline/reset');
export const AppendNotification = type<'notification', 'timeline/append', AppendParams>('notification', 'timeline/append');
export const FocusNotification = type<'notification', 'timeline/focus', FocusTarget>('notification', 'timeline/focus');

// ---- constructors and guards ----------------------------------------------------------------------

export function command<M extends string, P>(t: CommandType<M, P>, params: P): CommandMessage<P> {
  return { kind: 'command', method: t.method, params };
}

export function notification<M extends string, P>(t: NotificationType<M, P>, params: P): NotificationMessage<P> {
  return { kind: 'notification', method: t.method, params };
}

export function request<M extends string, P, R>(t: RequestType<M, P, R>, id: number, params: P): RequestMessage<P> {
  return { kind: 'request', id, method: t.method, params };
}

export function response<M extends string, P, R>(t: RequestType<M, P, R>, id: number, result: R): ResponseMessage<R> {
  return { kind: 'response', id, method: t.method, result };
}

export function errorResponse<M extends string, P, R>(t: RequestType<M, P, R>, id: number, error: string): ResponseMessage<R> {
  return { kind: 'response', id, method: t.method, error };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isCommand<M extends string, P>(msg: unknown, t: CommandType<M, P>): msg is CommandMessage<P> {
  return isRecord(msg) && msg['kind'] === 'command' && msg['method'] === t.method;
}

export function isNotification<M extends string, P>(msg: unknown, t: NotificationType<M, P>): msg is NotificationMessage<P> {
  return isRecord(msg) && msg['kind'] === 'notification' && msg['method'] === t.method && isRecord(msg['params']);
}

export function isRequest<M extends string, P, R>(msg: unknown, t: RequestType<M, P, R>): msg is RequestMessage<P> {
  return isRecord(msg) && msg['kind'] === 'request' && msg['method'] === t.method && typeof msg['id'] === 'number';
}

export function isResponse<M extends string, P, R>(msg: unknown, t: RequestType<M, P, R>): msg is ResponseMessage<R> {
  return isRecord(msg) && msg['kind'] === 'response' && msg['method'] === t.method && typeof msg['id'] === 'number';
}

/** `{ seq: number }` params, checked: the webview is a separate trust domain. */
export function hasSeq(params: unknown): params is { seq: number } {
  return isRecord(params) && typeof params['seq'] === 'number' && Number.isFinite(params['seq']);
}

export function isTimelineEventType(value: unknown): value is TimelineEventType {
  return typeof value === 'string' && (TIMELINE_EVENT_TYPES as readonly string[]).includes(value);
}

/** The lane an event belongs to: one per object of each cluster, one per informer for its own markers. */
export function laneKeyOf(e: Pick<TimelineEvent, 'informer' | 'resource' | 'namespace' | 'name' | 'cluster'>): string {
  return e.name === '' ? `informer:${e.informer}` : `${e.cluster ?? ''}|${e.resource}|${e.namespace}/${e.name}`;
}
