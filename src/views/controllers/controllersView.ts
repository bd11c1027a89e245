import * as vscode from 'vscode';
import { controllerSessions } from '../../runtime/index.ts';
import type { ReconcileSpan } from '../../shared/protocol/reconcileSpans.ts';
import { SpansNotification } from '../../shared/protocol/reconcileSpans.ts';
import { notification } from '../../shared/protocol/timeline.ts';
import { TimelinePanel } from '../timeline/timelinePanel.ts';
import type { ClusterTreeProvider } from '../tree/clusterTreeProvider.ts';
import type { NewTimelineEvent } from '../timeline/eventRing.ts';
import { ControllerSessionsModel, controllerNodeIds, probeTimelineEvent } from './controllerSessionsModel.ts';
import type { ControllerChange, SessionLike } from './controllerSessionsModel.ts';
import type { ControllerShape } from '../../runtime/protocol.ts';

// Glue for live inspection of running controllers: every controller session the runtime starts (Run
// Controller, or a debug session) is tracked by a ControllerSessionsModel; its changes become
// coalesced refreshes of the Controllers rows in the tree, and its reconciles become spans posted to
// the timeline (batched, like the timeline's events).

const SPAN_FLUSH_MS = 150;
/** While a key waits with backoff its "2.5s left" moves: its rows are refreshed this often. */
const BACKOFF_TICK_MS = 1000;

export interface ControllersView extends vscode.Disposable {
  readonly model: ControllerSessionsModel;
  /** Spans held for the timeline (oldest first). */
  spans(): ReconcileSpan[];
}

/**
 * `ring`: the lab's timeline events; the controller's own informer events go there too, so its
 * reconciles link to the events that triggered them and that their writes caused.
 */
export function attachControllers(tree: ClusterTreeProvider, ring?: { push(event: NewTimelineEvent): unknown }, debugType = 'controller-lab'): ControllersView {
  const model = new ControllerSessionsModel();
  tree.model.controllers = model;
  const spans = model.spans;
  let pending = new Map<string, ReconcileSpan>();
  let flushTimer: NodeJS.Timeout | undefined;

  const flushSpans = () => {
    flushTimer = undefined;
    if (pending.size === 0) return;
    const batch = [...pending.values()];
    pending = new Map();
    TimelinePanel.current?.postIfReady(notification(SpansNotification, { spans: batch }));
  };

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
      case 'span': {
        const { span } = change;
        pending.set(span.id, span);
        flushTimer ??= setTimeout(flushSpans, SPAN_FLUSH_MS);
        break;
      }
    }
  };
  const unsubscribeModel = model.onDidChange(onChange);

  const track = (session: SessionLike) => {
    const id = model.track(session);
    if (ring) {
      session.on('probe', ({ probe }) => {
        const event = probeTimelineEvent(model.entries.get(id)?.name ?? session.controller?.name ?? id, probe, session.controller as ControllerShape | undefined);
        if (event) ring.push(event);
      });
    }
  };
  for (const session of controllerSessions.list()) track(session);
  const unsubscribeStart = controllerSessions.onDidStart((session) => void track(session));

  // A new or restarted timeline asks for everything.
  TimelinePanel.onReady = (panel) => {
    panel.postIfReady(notification(SpansNotification, { spans: [...spans.values()], reset: true }));
  };

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
    spans: () => [...spans.values()],
    dispose() {
      unsubscribeModel();
      unsubscribeStart();
      tracker.dispose();
      clearInterval(tick);
      if (flushTimer) clearTimeout(flushTimer);
      if (TimelinePanel.onReady) TimelinePanel.onReady = undefined;
      if (tree.model.controllers === model) tree.model.controllers = undefined;
    },
  };
}
