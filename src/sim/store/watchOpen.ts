import type { Clock } from '../../shared/clock.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { invalid, tooLargeResourceVersion, tooOldResourceVersion } from '../../shared/apiErrors.ts';
import { matching, parseFilters, windowStartOf } from './listing.ts';
import type { MvccStore, ResourceTable } from './mvccStore.ts';
import { parseWatchResourceVersion } from './resourceVersionParam.ts';
import type { WatchListener, WatchRequest } from './types.ts';
import { errorEvent } from './watchEvent.ts';
import type { DeliveryGate } from './deliveryGate.ts';
import { qualifiedResource } from '../../shared/k8s.ts';
import { Watcher, type WatchObserver } from './watcher.ts';

// Opening a watch, with the watch cache's rules for where it starts:
//   RV unset or 0           → synthetic ADDED for every matching object now, then every change
//   sendInitialEvents=true  → the same, then a BOOKMARK annotated k8s.io/initial-events-end
//   RV N in the window      → every change after N, in order
//   RV N older than window  → accepted, then one ERROR (410 Expired "too old resource version")
//   RV N newer than the store → refused: 504 "Too large resource version"
// A watch served as of an older resourceVersion (`asOf`, a lagging watch cache: the stale-view
// fault) starts where that cache is: its initial state is the state at `asOf`, then every change
// after it; 410 when `asOf` is older than the window.

export interface OpenWatchArgs {
  id: number;
  store: MvccStore;
  table: ResourceTable;
  info: ResourceInfo;
  apiVersion: string;
  request: WatchRequest;
  listener: WatchListener;
  clock: Clock;
  gate: DeliveryGate;
  bookmarkIntervalMs: number;
  /** Registers the watch with the clients view, once it is accepted (a refused one is no watch). */
  observe?: () => WatchObserver | undefined;
  /** Who the watch's request ran as. */
  user?: string;
  /** Serve the initial state (RV unset or 0, or a streaming list) as of this older resourceVersion. */
  asOf?: number;
}

// ListOptions validation for a watch, in kube-apiserver 1.28's order (WatchList enabled here).
function validate(request: WatchRequest): void {
  const causes = [];
  const match = request.resourceVersionMatch;
  if (request.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    causes.push({ reason: 'FieldValueForbidden', field: 'resourceVersionMatch', message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan' });
  }
  if (match) {
    if (request.sendInitialEvents === undefined) {
      causes.push({ reason: 'FieldValueForbidden', field: 'resourceVersionMatch', message: 'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided' });
    }
    if (match !== 'NotOlderThan') {
      causes.push({ reason: 'FieldValueNotSupported', field: 'resourceVersionMatch', message: `Unsupported value: ${JSON.stringify(match)}: supported values: "NotOlderThan"` });
    }
  }
  if (causes.length) throw invalid('meta.k8s.io', 'ListOptions', '', causes);
}

export function openWatch(a: OpenWatchArgs): Watcher {
  validate(a.request);
  const filters = parseFilters(a.info, a.request.namespace, a.request.labelSelector, a.request.fieldSelector);
  const rv = parseWatchResourceVersion(a.request.resourceVersion);
  const current = a.store.resourceVersion;
  // kube-apiserver accepts a watch from an RV it has not reached and stays silent until it gets there;
  // refusing instead lets an informer that outlived the sim's data relist rather than hang.
  if (rv !== undefined && rv > current) throw tooLargeResourceVersion(rv, current);
  const watcher = new Watcher({
    id: a.id,
    clock: a.clock,
    gate: a.gate,
    resource: qualifiedResource(a.table),
    user: a.user,
    listener: a.listener,
    namespace: filters.namespace,
    label: filters.label,
    field: filters.field,
    apiVersion: a.apiVersion,
    kind: a.info.kind,
    bookmarks: a.request.allowWatchBookmarks === true,
    bookmarkIntervalMs: a.bookmarkIntervalMs,
    timeoutSeconds: a.request.timeoutSeconds,
    currentRv: () => a.store.resourceVersion,
    detach: (w) => a.table.watchers.delete(w),
    observer: a.observe?.(),
  });

  const oldest = windowStartOf(a.store, a.table);
  const fromInitialState = a.request.sendInitialEvents || rv === undefined || rv === 0;
  if (fromInitialState && a.asOf !== undefined && a.asOf < current) {
    if (a.asOf < oldest) return expiredWatch(watcher, a.asOf, oldest);
    for (const [, stored] of matching(a.table.stateAt(a.asOf), filters)) watcher.offerInitial(stored);
    if (a.request.sendInitialEvents) {
      // A watch-list gets the old state and its end at once, as a list gets it; what came after waits.
      watcher.bookmark(true, a.asOf);
      watcher.serveQueuedAnyway();
    }
    for (const event of a.table.history.after(a.asOf)) watcher.offer(event);
    a.table.watchers.add(watcher);
    watcher.start(a.asOf);
    return watcher;
  }
  if (fromInitialState) {
    for (const [, stored] of matching(a.table.view(), filters)) watcher.offerInitial(stored);
    if (a.request.sendInitialEvents) {
      watcher.bookmark(true);
      // A lagging cache that has not lagged behind anything yet still serves the state it has.
      if (a.asOf !== undefined) watcher.serveQueuedAnyway();
    }
    a.table.watchers.add(watcher);
    watcher.start(current);
    return watcher;
  }

  if (rv < oldest) return expiredWatch(watcher, rv, oldest);
  for (const event of a.table.history.after(rv)) watcher.offer(event);
  a.table.watchers.add(watcher);
  watcher.start(rv);
  return watcher;
}

/** The watch answered with one ERROR event, 410 Expired, and ended. */
function expiredWatch(watcher: Watcher, asked: number, oldest: number): Watcher {
  const status = tooOldResourceVersion(asked, oldest).status;
  if (status) watcher.pushEvent(errorEvent(status));
  watcher.end('expired');
  return watcher;
}
