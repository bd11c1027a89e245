import type { AppendParams, EventDetails, FocusTarget, ResetParams, TimelineEvent } from '../../src/shared/protocol/timeline.ts';
import {
  AppendNotification,
  ClearCommand,
  CompareObjectCommand,
  WhyCommand,
  EventDetailsRequest,
  FocusNotification,
  OpenObjectCommand,
  ReadyCommand,
  ResetNotification,
  command,
  isNotification,
} from '../../src/shared/protocol/timeline.ts';
import { SpansNotification, isSpansParams } from '../../src/shared/protocol/reconcileSpans.ts';
import { Toolbar } from './controls.ts';
import type { ReconcileSpan } from '../../src/shared/protocol/reconcileSpans.ts';
import { MAX_SPAN_ROWS, SpanStrip, readSpanColors, renderSpanDetails, spanStripHeight } from './spanStrip.ts';
import { spanLinks } from './spanStore.ts';
import { DetailsPane } from './details.ts';
import { GUTTER_WIDTH, laneRowsFitting, plotWidth } from './layout.ts';
import { RatePlot } from './ratePlot.ts';
import { formatSpan } from './layout.ts';
import { LaneRenderer } from './renderer.ts';
import type { TimelineAction, TimelineState } from './state.ts';
import { initialState, reduce, selectedEvent } from './state.ts';
import { readPalette, onThemeChange } from './theme.ts';
import { registerToolkit } from './toolkit.ts';
import { HostConnection } from './vscodeApi.ts';
import { xToTime } from './viewport.ts';
import { eventHoverText, spanHoverText } from './hoverText.ts';

// The timeline app: host messages and user gestures become reducer actions; one animation frame
// draws whatever changed. The host sends nothing before our `ready`.

registerToolkit();
const host = new HostConnection();

let state: TimelineState = initialState(Date.now());
let palette = readPalette();
let frameRequested = false;
let detailsSeq: number | undefined;

const app = document.getElementById('app') ?? document.body;
const toolbar = new Toolbar({
  follow: (on) => dispatch({ type: 'setFollow', follow: on }),
  zoom: (factor) => dispatch({ type: 'zoom', factor }),
  fit: () => dispatch({ type: 'fit' }),
  filter: (patch) => dispatch({ type: 'setFilter', filters: patch }),
  clear: () => {
    host.post(command(ClearCommand, {}));
    dispatch({ type: 'clear' });
    layoutSpans();
  },
});
const rateCanvas = document.createElement('canvas');
rateCanvas.id = 'rate';
rateCanvas.setAttribute('aria-hidden', 'true');
const laneCanvas = document.createElement('canvas');
laneCanvas.id = 'lanes';
laneCanvas.tabIndex = 0;
laneCanvas.setAttribute('role', 'application');
laneCanvas.setAttribute(
  'aria-label',
  'Event timeline. Arrow keys move between events and lanes, plus and minus zoom, Shift+arrows pan, Enter opens the object.',
);
const plot = document.createElement('section');
plot.className = 'plot';
// Reconciles of running controllers (a strip above the lanes, shown once there are any).
const spanCanvas = document.createElement('canvas');
spanCanvas.id = 'spans';
spanCanvas.tabIndex = 0;
spanCanvas.setAttribute('role', 'application');
spanCanvas.setAttribute('aria-label', 'Reconciles of running controllers. Click a bar, or use the arrow keys, to see what triggered it and what it wrote.');
plot.append(rateCanvas, spanCanvas, laneCanvas);
const detailsRoot = document.createElement('aside');
detailsRoot.id = 'details';
detailsRoot.setAttribute('aria-label', 'Event details');
const status = document.createElement('div');
status.className = 'sr-only';
status.setAttribute('aria-live', 'polite');
const main = document.createElement('main');
main.append(plot, detailsRoot);
app.append(toolbar.root, main, status);

const lanes = new LaneRenderer(laneCanvas);
const rate = new RatePlot(rateCanvas);
const strip = new SpanStrip(spanCanvas);
const details = new DetailsPane(detailsRoot, {
  open: (seq) => host.post(command(OpenObjectCommand, { seq })),
  compare: (seq) => host.post(command(CompareObjectCommand, { seq })),
  why: (seq) => host.post(command(WhyCommand, { seq })),
});

/** Draw times (ms) of the last frames, read by the UI check. */
const frameTimes: number[] = [];
(window as unknown as { timelineDebug: unknown }).timelineDebug = {
  frameTimes,
  state: () => state,
  spans: () => state.spans,
};

/** What survives the panel being hidden and shown again (VS Code does not retain the page). */
interface SavedView {
  filters: TimelineState['filters'];
  follow: boolean;
  spanMs: number;
}

function dispatch(action: TimelineAction): void {
  const before = state;
  state = reduce(state, action);
  if (state === before) return;
  syncDom(before);
  requestFrame();
  if (before.filters !== state.filters || before.follow !== state.follow || before.viewport !== state.viewport) saveView();
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;
function saveView(): void {
  if (saveTimer) return;
  saveTimer = setTimeout(() => {
    saveTimer = undefined;
    const saved: SavedView = { filters: state.filters, follow: state.follow, spanMs: state.viewport.end - state.viewport.start };
    host.setState(saved);
  }, 300);
}

function restoreView(): void {
  const saved = host.getState<SavedView>();
  if (!saved || typeof saved !== 'object') return;
  if (saved.filters) dispatch({ type: 'setFilter', filters: saved.filters });
  if (typeof saved.spanMs === 'number' && saved.spanMs > 0) dispatch({ type: 'zoom', factor: saved.spanMs / (state.viewport.end - state.viewport.start) });
  if (typeof saved.follow === 'boolean') dispatch({ type: 'setFollow', follow: saved.follow });
  toolbar.setName(state.filters.name);
}

function syncDom(before: TimelineState): void {
  toolbar.setFollow(state.follow);
  toolbar.setCount(state.view.count, state.store.size);
  if (before.view.storeVersion !== state.view.storeVersion || before.filters !== state.filters) {
    toolbar.setResources(state.store.resources(), state.filters.resource);
    toolbar.setNamespaces(state.store.namespaces(), state.filters.namespace);
    toolbar.setName(state.filters.name);
    toolbar.setTypes(state.filters.types);
  }
  toolbar.setHint(state.selectedSeq === undefined && state.selectedSpan === undefined);
  if (state.selectedSeq !== detailsSeq) {
    detailsSeq = state.selectedSeq;
    const event = selectedEvent(state);
    if (event) {
      status.textContent = `${event.type} ${event.name || event.informer} rv ${event.resourceVersion}`;
      void loadDetails(event);
    } else details.empty();
  }
}

/** The latest details request: an answer to an earlier one (the same event selected again meanwhile) is not drawn over it. */
let detailsRequest = 0;

async function loadDetails(event: TimelineEvent): Promise<void> {
  const request = ++detailsRequest;
  details.loading(event);
  try {
    const result: EventDetails = await host.request(EventDetailsRequest, { seq: event.seq });
    if (request === detailsRequest && detailsSeq === event.seq) details.show(result);
  } catch (err) {
    if (request === detailsRequest && detailsSeq === event.seq) details.error(event, err instanceof Error ? err.message : String(err));
  }
}

function requestFrame(): void {
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(() => {
    frameRequested = false;
    const t0 = performance.now();
    lanes.draw(state, palette, document.activeElement === laneCanvas);
    rate.draw(state, palette);
    strip.draw(state.spans, state.viewport, state.now, state.selectedSpan);
    toolbar.setRate(`window ${formatSpan(state.viewport.end - state.viewport.start)}`);
    frameTimes.push(performance.now() - t0);
    if (frameTimes.length > 600) frameTimes.splice(0, frameTimes.length - 600);
  });
}

function layout(): void {
  const rect = plot.getBoundingClientRect();
  const rateHeight = 44;
  rate.resize(rect.width, rateHeight);
  lanes.resize(rect.width, Math.max(60, rect.height - rateHeight));
  dispatch({ type: 'layout', laneRows: laneRowsFitting(lanes.size) });
  layoutSpans(true);
  requestFrame();
}
new ResizeObserver(layout).observe(plot);
onThemeChange(() => {
  palette = readPalette();
  strip.colors = readSpanColors();
  requestFrame();
});

// ---- host messages ----
host.onMessage((message) => {
  if (isNotification<string, ResetParams>(message, ResetNotification)) {
    const p = message.params;
    dispatch({ type: 'reset', events: p.events, maxEvents: p.maxEvents, now: p.now });
  } else if (isNotification<string, AppendParams>(message, AppendNotification)) {
    const p = message.params;
    dispatch({ type: 'append', events: p.events, evictedThroughSeq: p.evictedThroughSeq, now: p.now });
  } else if (isNotification(message, SpansNotification) && isSpansParams(message.params)) {
    dispatch({ type: 'spans', params: message.params });
    layoutSpans();
    if (state.selectedSpan) showSpan(state.selectedSpan);
    requestFrame();
  } else if (isNotification<string, FocusTarget>(message, FocusNotification)) {
    dispatch({ type: 'focus', target: message.params });
    laneCanvas.focus();
  }
});

// ---- reconcile spans ----
/** The strip takes rows from the lanes as controller keys appear (up to MAX_SPAN_ROWS). */
function layoutSpans(force = false): void {
  const height = spanStripHeight(state.spans.lanes().length);
  if (!force && height === strip.size.height) return;
  const rect = plot.getBoundingClientRect();
  strip.resize(rect.width, height);
  lanes.resize(rect.width, Math.max(60, rect.height - 44 - height));
  dispatch({ type: 'layout', laneRows: laneRowsFitting(lanes.size) });
  requestFrame();
}

function showSpan(id: string): void {
  const span = state.spans.get(id);
  if (!span) return;
  renderSpanDetails(detailsRoot, span, spanLinks(span, state.store), (seq) => {
    dispatch({ type: 'select', seq });
    laneCanvas.focus();
    requestFrame();
  });
}

function selectSpan(span: ReconcileSpan | undefined): void {
  dispatch({ type: 'selectSpan', id: span?.id });
  toolbar.setHint(span === undefined && state.selectedSeq === undefined);
  if (!span && state.selectedSeq === undefined) details.empty();
  if (span) {
    status.textContent = `reconcile #${span.seq} ${span.key} ${span.outcome}${span.detail ? ` ${span.detail}` : ''}`;
    showSpan(span.id);
  }
  requestFrame();
}

spanCanvas.addEventListener('click', (e) => {
  const rect = spanCanvas.getBoundingClientRect();
  selectSpan(strip.hit(state.spans, state.viewport, e.clientX - rect.left, e.clientY - rect.top));
});
spanCanvas.addEventListener('pointermove', (e) => {
  const rect = spanCanvas.getBoundingClientRect();
  const span = strip.hit(state.spans, state.viewport, e.clientX - rect.left, e.clientY - rect.top);
  spanCanvas.title = span ? spanHoverText(span) : '';
});
spanCanvas.addEventListener('keydown', (e) => {
  const direction = ({ ArrowLeft: 'prev', ArrowRight: 'next', ArrowUp: 'up', ArrowDown: 'down' } as const)[e.key as 'ArrowLeft'];
  if (!direction) return;
  e.preventDefault();
  selectSpan(state.spans.step(state.selectedSpan, direction, MAX_SPAN_ROWS));
});
spanCanvas.addEventListener('wheel', (e) => onWheel(e), { passive: false });

// ---- mouse ----
function timeAtX(clientX: number): number {
  const x = clientX - laneCanvas.getBoundingClientRect().left - GUTTER_WIDTH;
  return xToTime(state.viewport, x, plotWidth(lanes.size));
}

function onWheel(e: WheelEvent): void {
  e.preventDefault();
  if (e.shiftKey) {
    dispatch({ type: 'scrollLanes', delta: Math.sign(e.deltaY || e.deltaX) * 3 });
  } else if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
    dispatch({ type: 'pan', deltaMs: (e.deltaX / plotWidth(lanes.size)) * (state.viewport.end - state.viewport.start) });
  } else {
    dispatch({ type: 'zoom', factor: Math.exp(e.deltaY * 0.0015), anchor: timeAtX(e.clientX) });
  }
}
laneCanvas.addEventListener('wheel', onWheel, { passive: false });
rateCanvas.addEventListener('wheel', onWheel, { passive: false });

let drag: { x: number; y: number; moved: boolean; scroll: number } | undefined;
laneCanvas.addEventListener('pointerdown', (e) => {
  laneCanvas.setPointerCapture(e.pointerId);
  drag = { x: e.clientX, y: e.clientY, moved: false, scroll: state.laneScroll };
});
laneCanvas.addEventListener('pointermove', (e) => {
  if (!drag) {
    const rect = laneCanvas.getBoundingClientRect();
    const hit = lanes.hit(state, e.clientX - rect.left, e.clientY - rect.top);
    laneCanvas.title = hit ? eventHoverText(hit) : '';
    return;
  }
  const dx = e.clientX - drag.x;
  const dy = e.clientY - drag.y;
  if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
  drag.moved = true;
  const msPerPx = (state.viewport.end - state.viewport.start) / plotWidth(lanes.size);
  dispatch({ type: 'pan', deltaMs: -dx * msPerPx });
  const rows = Math.round(-dy / 20);
  if (rows !== 0) dispatch({ type: 'scrollLanes', delta: drag.scroll + rows - state.laneScroll });
  drag.x = e.clientX;
  if (rows !== 0) {
    drag.y = e.clientY;
    drag.scroll = state.laneScroll;
  }
});
laneCanvas.addEventListener('pointerup', (e) => {
  const wasDrag = drag?.moved;
  drag = undefined;
  if (wasDrag) return;
  const rect = laneCanvas.getBoundingClientRect();
  const hit = lanes.hit(state, e.clientX - rect.left, e.clientY - rect.top);
  dispatch({ type: 'select', seq: hit?.seq });
});
// Right-click on an event: VS Code's webview context menu reads data-vscode-context from the
// element under the pointer, so the event there is named just before ("Why (Not)?" on it).
laneCanvas.addEventListener('contextmenu', (e) => {
  const rect = laneCanvas.getBoundingClientRect();
  const hit = lanes.hit(state, e.clientX - rect.left, e.clientY - rect.top);
  laneCanvas.dataset['vscodeContext'] = JSON.stringify(hit?.name ? { webviewSection: 'event', seq: hit.seq, preventDefaultContextMenuItems: true } : {});
});
laneCanvas.addEventListener('dblclick', () => {
  if (state.selectedSeq !== undefined) host.post(command(OpenObjectCommand, { seq: state.selectedSeq }));
});
laneCanvas.addEventListener('focus', requestFrame);
laneCanvas.addEventListener('blur', requestFrame);

// ---- keyboard ----
laneCanvas.addEventListener('keydown', (e) => {
  const span = state.viewport.end - state.viewport.start;
  let action: TimelineAction | undefined;
  switch (e.key) {
    case 'ArrowLeft': action = e.shiftKey ? { type: 'pan', deltaMs: -span * 0.1 } : { type: 'step', direction: 'prev' }; break;
    case 'ArrowRight': action = e.shiftKey ? { type: 'pan', deltaMs: span * 0.1 } : { type: 'step', direction: 'next' }; break;
    case 'ArrowUp': action = { type: 'step', direction: 'up' }; break;
    case 'ArrowDown': action = { type: 'step', direction: 'down' }; break;
    case 'Home': action = { type: 'step', direction: 'first' }; break;
    case 'End': action = { type: 'step', direction: 'last' }; break;
    case 'PageUp': action = { type: 'scrollLanes', delta: -state.laneRows }; break;
    case 'PageDown': action = { type: 'scrollLanes', delta: state.laneRows }; break;
    case '+': case '=': action = { type: 'zoom', factor: 0.5 }; break;
    case '-': case '_': action = { type: 'zoom', factor: 2 }; break;
    case '0': action = { type: 'fit' }; break;
    case 'f': action = { type: 'setFollow', follow: !state.follow }; break;
    case 'Escape': action = { type: 'select', seq: undefined }; break;
    case 'Enter':
      if (state.selectedSeq !== undefined) host.post(command(OpenObjectCommand, { seq: state.selectedSeq }));
      break;
    default: return;
  }
  e.preventDefault();
  if (action) dispatch(action);
});

// A clock tick keeps "follow live" moving when no events arrive.
setInterval(() => {
  if (state.follow) dispatch({ type: 'append', events: [], evictedThroughSeq: -1, now: Date.now() });
}, 1000);

restoreView();
host.post(command(ReadyCommand, {}));
