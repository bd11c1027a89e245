import type { KubeObject } from '../../shared/k8s.ts';
import type { EventFate, EventFateKind, KindRef, PredicateLike, WatchEvent } from '../../controllerProtocol/index.ts';
import type { KeyState } from './ports.ts';

// One source of a controller (its for, an owns, a watches): the predicates an event must pass and
// how it maps to requests. `fateOf` says, for one request key, what adding it to the queue does,
// read from the key's state before the add: the fate each event leaves behind for "why not".

export type SourceVia = EventFate['via'];

export interface NamedPredicate {
  readonly name: string;
  filter(event: WatchEvent): boolean;
}

export interface EventSource {
  kind: KindRef;
  via: SourceVia;
  /** The controller's own predicates first (WithEventFilter), then the source's. */
  predicates: NamedPredicate[];
  keysOf(obj: KubeObject, old?: KubeObject): string[];
}

/** Predicates as the controller wrote them: objects keep their name, functions are named by theirs. */
export function namedPredicates(list: readonly PredicateLike[] | undefined): NamedPredicate[] {
  return (list ?? []).map((p, i) => {
    if (typeof p === 'function') return { name: p.name || `predicate #${i + 1}`, filter: p };
    return { name: p.name || `predicate #${i + 1}`, filter: (e) => p.filter(e) };
  });
}

/** The first predicate that filters the event out (its name), or undefined when all pass. A throwing one filters it. */
export function rejectingPredicate(predicates: readonly NamedPredicate[], event: WatchEvent, onError: (name: string, err: unknown) => void): string | undefined {
  for (const p of predicates) {
    let pass: boolean;
    try {
      pass = p.filter(event) !== false;
    } catch (err) {
      onError(p.name, err);
      pass = false;
    }
    if (!pass) return p.name;
  }
  return undefined;
}

export interface KeyFate {
  fate: EventFateKind;
  keyState?: KeyState['state'];
  backoffMs?: number;
}

/**
 * What adding `key` does: `merged` when it is queued already (or runs again after the current
 * reconcile anyway), `waiting` when it is held back until `heldUntil`, otherwise `enqueued`.
 */
export function fateOf(state: KeyState | undefined, heldUntil: number | undefined, now: number): KeyFate {
  if (heldUntil !== undefined && heldUntil > now) return { fate: 'waiting', backoffMs: heldUntil - now, ...(state ? { keyState: state.state } : {}) };
  if (!state) return { fate: 'enqueued' };
  if (state.state === 'queued' || (state.state === 'processing' && state.dirty)) return { fate: 'merged', keyState: state.state };
  if (state.state === 'waiting') return { fate: 'enqueued', keyState: 'waiting', ...(state.readyAt !== undefined ? { backoffMs: Math.max(0, state.readyAt - now) } : {}) };
  return { fate: 'enqueued', keyState: state.state };
}
