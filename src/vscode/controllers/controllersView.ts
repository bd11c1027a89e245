import * as vscode from 'vscode';
import { controllerSessions } from '../../runtime/index.ts';
import { resolveContext } from '../../kube/index.ts';
import type { ClusterTreeProvider } from '../tree/clusterTreeProvider.ts';
import type { TimelineFeed } from '../model/timelineFeed.ts';
import { ControllerSessionsModel, type ControllerChange } from './controllerSessionsModel.ts';
import { ControllerTreeRows } from './controllerTreeRows.ts';
import { controllerNodeIds } from '../tree/controllerTreeNodes.ts';
import { publishToTimeline } from './controllerTimeline.ts';
import type { SessionLike } from './sessionLike.ts';

// Glue for live inspection of running controllers: every controller session the runtime starts (Run
// Controller, or a debug session) is tracked by a ControllerSessionsModel; its changes become
// coalesced refreshes of the Controllers rows in the tree, and the session publishes its reconciles
// and its informers' events into the lab's timeline feed (which the timeline panel follows).
/** While a key waits with backoff its "2.5s left" moves: its rows are refreshed this often. */
const BACKOFF_TICK_MS = 1000;

export interface ControllersView extends vscode.Disposable {
  readonly model: ControllerSessionsModel;
}

/**
 * `timeline`: the lab's feed; the controller's own informer events go there too, so its reconciles
 * link to the events that triggered them and that their writes caused.
 */
export function attachControllers(tree: ClusterTreeProvider, timeline?: TimelineFeed, debugType = 'controller-lab', viewServers?: () => string[]): ControllersView {
  const model = new ControllerSessionsModel();
  if (viewServers) model.viewServers = viewServers;
  const rows = new ControllerTreeRows(model);
  tree.model.controllers = rows;

  const onChange = (change: ControllerChange) => {
    switch (change.kind) {
      case 'sessions':
        tree.markIds('all');
        break;
      case 'controller':
        tree.markIds([controllerNodeIds.controller(change.sessionId), controllerNodeIds.informers(change.sessionId), controllerNodeIds.queue(change.sessionId)]);
        break;
      // Refreshing a row re-reads its children: the list rows need no marks of their own.
      case 'informers':
        tree.markIds([controllerNodeIds.informers(change.sessionId)]);
        break;
      case 'queue':
        tree.markIds([controllerNodeIds.controller(change.sessionId), controllerNodeIds.queue(change.sessionId)]);
        break;
    }
  };
  const unsubscribeModel = model.onDidChange(onChange);

  const track = (session: SessionLike) => {
    const id = model.track(session);
    const entry = model.entries.get(id);
    if (entry && session.clusterKubeconfig) entry.server = serverOf(session.clusterKubeconfig);
    // Ends with the session (it emits nothing after its exit): nothing to unsubscribe.
    if (timeline) publishToTimeline(session, timeline, () => model.entries.get(id)?.name ?? session.controller?.name ?? id);
  };
  for (const session of controllerSessions.list()) track(session);
  const unsubscribeStart = controllerSessions.onDidStart((session) => void track(session));

  // "Stopped in debugger": the reconcile debugger's stopped / continued events (the newest live session).
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory(debugType, {
    createDebugAdapterTracker: () => ({
      onDidSendMessage: (message: unknown) => {
        const m = message as { type?: string; event?: string };
        if (m.type !== 'event') return;
        const id = model.liveSession();
        if (!id) return;
        if (m.event === 'stopped') model.setPaused(id, true);
        else if (m.event === 'continued' || m.event === 'terminated') model.setPaused(id, false);
      },
    }),
  });

  const tick = setInterval(() => {
    for (const entry of model.entries.values()) {
      if (entry.queue.keys.some((k) => k.state === 'waiting')) tree.markIds([controllerNodeIds.queue(entry.id)]);
    }
  }, BACKOFF_TICK_MS);

  return {
    model,
    dispose() {
      unsubscribeModel();
      unsubscribeStart();
      tracker.dispose();
      clearInterval(tick);
      rows.dispose();
      if (tree.model.controllers === rows) tree.model.controllers = undefined;
    },
  };
}

/** The API server a kubeconfig's current context names; none when it cannot be read. */
function serverOf(kubeconfig: string): string | undefined {
  try {
    return resolveContext({ kubeconfig }).cluster.server;
  } catch {
    return undefined;
  }
}
