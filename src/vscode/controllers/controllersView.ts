import * as vscode from 'vscode';
import { controllerSessions } from '../../runtime/index.ts';
import type { ClusterTreeProvider } from '../tree/clusterTreeProvider.ts';
import type { TimelineFeed } from '../timeline/timelineFeed.ts';
import { ControllerSessionsModel, controllerNodeIds, probeTimelineEvent } from './controllerSessionsModel.ts';
import type { ControllerChange, SessionLike } from './controllerSessionsModel.ts';
import type { ControllerShape } from '../../runtime/index.ts';

// Glue for live inspection of running controllers: every controller session the runtime starts (Run
// Controller, or a debug session) is tracked by a ControllerSessionsModel; its changes become
// coalesced refreshes of the Controllers rows in the tree, and its reconciles become spans in the
// lab's timeline feed (which the timeline panel follows).
/** While a key waits with backoff its "2.5s left" moves: its rows are refreshed this often. */
const BACKOFF_TICK_MS = 1000;

export interface ControllersView extends vscode.Disposable {
  readonly model: ControllerSessionsModel;
}

/**
 * `timeline`: the lab's feed; the controller's own informer events go there too, so its reconciles
 * link to the events that triggered them and that their writes caused.
 */
export function attachControllers(tree: ClusterTreeProvider, timeline?: TimelineFeed, debugType = 'controller-lab'): ControllersView {
  const model = new ControllerSessionsModel();
  tree.model.controllers = model;

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
      case 'span':
        timeline?.putSpan(change.span);
        break;
    }
  };
  const unsubscribeModel = model.onDidChange(onChange);

  const track = (session: SessionLike) => {
    const id = model.track(session);
    if (timeline) {
      session.on('probe', ({ probe }) => {
        const shapes = session.controllers?.length ? session.controllers : session.controller ? [session.controller as ControllerShape] : undefined;
        const event = probeTimelineEvent(model.entries.get(id)?.name ?? session.controller?.name ?? id, probe, shapes);
        if (event) timeline.events.push(event);
      });
    }
  };
  for (const session of controllerSessions.list()) track(session);
  const unsubscribeStart = controllerSessions.onDidStart((session) => void track(session));

  // "Stopped in debugger": the reconcile debugger's stopped / continued events (the newest live session).
  const liveSession = () => [...model.entries.values()].reverse().find((e) => e.state !== 'exited' && e.state !== 'failed')?.id;
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory(debugType, {
    createDebugAdapterTracker: () => ({
      onDidSendMessage: (message: unknown) => {
        const m = message as { type?: string; event?: string };
        if (m.type !== 'event') return;
        const id = liveSession();
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
      if (tree.model.controllers === model) tree.model.controllers = undefined;
    },
  };
}
