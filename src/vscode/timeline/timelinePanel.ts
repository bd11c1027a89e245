import * as vscode from 'vscode';
import type { ReconcileSpan } from '../../shared/protocol/reconcileSpans.ts';
import { SpansNotification } from '../../shared/protocol/reconcileSpans.ts';
import type { FocusTarget } from '../../shared/protocol/timeline.ts';
import {
  AppendNotification,
  ClearCommand,
  CompareObjectCommand,
  EventDetailsRequest,
  FocusNotification,
  OpenObjectCommand,
  ReadyCommand,
  ResetNotification,
  WhyCommand,
  errorResponse,
  hasSeq,
  isCommand,
  isRequest,
  notification,
  response,
} from '../../shared/protocol/timeline.ts';
import { Disposable } from '../disposable.ts';
import type { Lab } from '../model/lab.ts';
import type { Settings } from '../settings.ts';
import { eventDetails, objectKeyOfEvent } from './eventDetails.ts';
import { timelineHtml } from './webviewHtml.ts';

// The host side of the timeline webview, fed by the lab's timeline feed: sends its events and
// reconcile spans once the app says `ready`, then batched appends and span updates (at most every
// 150 ms), answers detail requests, and turns the app's commands into VS Code commands. A hidden
// panel is not retained; showing it again starts over with `ready`.

const FLUSH_INTERVAL_MS = 150;

export interface TimelineHost {
  /** Opens an object's live document. */
  openObject(informerId: string, key: string): Promise<void>;
  /** Diffs an object's version with the one before it. */
  compareObject(informerId: string, key: string, resourceVersion?: string): Promise<void>;
}

export class TimelinePanel extends Disposable {
  static readonly viewType = 'controllerLab.timeline';
  static current: TimelinePanel | undefined;

  readonly panel: vscode.WebviewPanel;
  private readonly lab: Lab;
  private readonly settings: Settings;
  private readonly host: TimelineHost;
  private ready = false;
  private lastSentSeq = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private pendingFocus: FocusTarget | undefined;
  /** Span updates not yet posted, by id (a start and its end in one batch send the end). */
  private pendingSpans = new Map<string, ReconcileSpan>();
  /** Messages posted since the panel opened (tests look at it). */
  posted = 0;

  static show(extensionUri: vscode.Uri, lab: Lab, settings: Settings, host: TimelineHost): TimelinePanel {
    if (TimelinePanel.current) {
      TimelinePanel.current.panel.reveal(undefined, false);
      return TimelinePanel.current;
    }
    const panel = vscode.window.createWebviewPanel(TimelinePanel.viewType, 'Informer Timeline', vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    });
    TimelinePanel.current = new TimelinePanel(panel, extensionUri, lab, settings, host);
    return TimelinePanel.current;
  }

  private constructor(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, lab: Lab, settings: Settings, host: TimelineHost) {
    super();
    this.panel = panel;
    this.lab = lab;
    this.settings = settings;
    this.host = host;
    panel.iconPath = new vscode.ThemeIcon('pulse');
    const webview = panel.webview;
    webview.html = timelineHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'timeline.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'timeline.css')).toString(),
    });
    this._register(webview.onDidReceiveMessage((m: unknown) => this.onMessage(m)));
    this._register(
      panel.onDidChangeViewState(() => {
        // Not retained: hiding destroys the page; it sends `ready` again when shown.
        if (!panel.visible) this.ready = false;
      }),
    );
    this._registerFn(lab.timeline.onDidPushEvent(() => this.scheduleFlush()));
    this._registerFn(
      lab.timeline.onDidPutSpans((spans) => {
        if (!this.ready) return; // `ready` sends them all
        for (const span of spans) this.pendingSpans.set(span.id, span);
        this.scheduleFlush();
      }),
    );
    this._register(
      settings.onDidChange((key) => {
        // The extension resized the ring (it listens first); start the webview over from it.
        if (key === 'timeline.maxEvents') this.reset();
      }),
    );
    this._register(panel.onDidDispose(() => this.dispose()));
  }

  override dispose(): void {
    if (TimelinePanel.current === this) TimelinePanel.current = undefined;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    super.dispose();
    this.panel.dispose();
  }

  /** Filters the timeline to one object (or resource) and selects its newest event. */
  focus(target: FocusTarget): void {
    if (this.ready) {
      this.flush();
      void this.post(notification(FocusNotification, target));
    } else this.pendingFocus = target;
  }

  private post(message: unknown): Thenable<boolean> {
    this.posted++;
    return this.panel.webview.postMessage(message);
  }

  private reset(): void {
    if (!this.ready) return;
    const ring = this.lab.timeline.events;
    const events = ring.all();
    this.lastSentSeq = ring.lastSeq;
    void this.post(notification(ResetNotification, { events, maxEvents: ring.capacity, now: this.lab.clock.now() }));
    this.pendingSpans.clear();
    void this.post(notification(SpansNotification, { spans: this.lab.timeline.spans(), reset: true }));
  }

  private scheduleFlush(): void {
    if (!this.ready || this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, FLUSH_INTERVAL_MS);
  }

  private flush(): void {
    if (!this.ready) return;
    const ring = this.lab.timeline.events;
    // Events first: a span's links name events, which the app looks up when it draws the span.
    if (ring.lastSeq > this.lastSentSeq) {
      const events = ring.since(this.lastSentSeq);
      this.lastSentSeq = ring.lastSeq;
      void this.post(notification(AppendNotification, { events, evictedThroughSeq: ring.evictedThroughSeq, now: this.lab.clock.now() }));
    }
    if (this.pendingSpans.size > 0) {
      const spans = [...this.pendingSpans.values()];
      this.pendingSpans = new Map();
      void this.post(notification(SpansNotification, { spans }));
    }
  }

  private onMessage(message: unknown): void {
    if (isCommand(message, ReadyCommand)) {
      this.ready = true;
      this.reset();
      if (this.pendingFocus) {
        void this.post(notification(FocusNotification, this.pendingFocus));
        this.pendingFocus = undefined;
      }
    } else if (isRequest(message, EventDetailsRequest)) {
      try {
        if (!hasSeq(message.params)) throw new Error('bad request');
        void this.post(response(EventDetailsRequest, message.id, eventDetails(this.lab, message.params.seq, this.settings.showSecretValues)));
      } catch (err) {
        void this.post(errorResponse(EventDetailsRequest, message.id, err instanceof Error ? err.message : String(err)));
      }
    } else if (isCommand(message, OpenObjectCommand) || isCommand(message, CompareObjectCommand)) {
      if (!hasSeq(message.params)) return;
      const event = this.lab.timeline.events.get(message.params.seq);
      if (!event?.name) return;
      const key = objectKeyOfEvent(event);
      const action = isCommand(message, OpenObjectCommand)
        ? this.host.openObject(event.informer, key)
        : this.host.compareObject(event.informer, key, event.resourceVersion);
      action.then(undefined, (err: unknown) => void vscode.window.showErrorMessage(`Controller Lab: ${err instanceof Error ? err.message : String(err)}`));
    } else if (isCommand(message, WhyCommand)) {
      if (!hasSeq(message.params)) return;
      // The same command as the event's context menu, with what that menu passes.
      void vscode.commands.executeCommand('controllerLab.whyNot', { webview: TimelinePanel.viewType, webviewSection: 'event', seq: message.params.seq });
    } else if (isCommand(message, ClearCommand)) {
      this.lab.timeline.clear();
      this.lastSentSeq = this.lab.timeline.events.lastSeq;
      this.pendingSpans.clear();
    }
  }
}
