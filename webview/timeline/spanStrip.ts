import type { ReconcileSpan } from '../../src/shared/protocol/reconcileSpans.ts';
import { opaqueContext, sizeCanvas } from './canvas.ts';
import { fitRequestKey } from './laneLabelFit.ts';
import { GUTTER_WIDTH, formatSpan, plotWidth } from './layout.ts';
import type { Size } from './layout.ts';
import type { SpanLane, SpanLink, SpanStore } from './spanStore.ts';
import type { Viewport } from './viewport.ts';
import { timeToX, xToTime } from './viewport.ts';

// The reconcile strip: above the event lanes, one row per controller key (most recently active
// first), each reconcile a bar from its start to its end in a colour of its own (theme variables).
// Selecting a bar lists its trigger events and its writes with their RVs (a linked one selects the
// timeline event it names), and its warnings: a stale read marks its bar with a warning triangle. Drawn only when the store or the viewport changed (main.ts decides).

export const SPAN_ROW_HEIGHT = 16;
export const MAX_SPAN_ROWS = 6;

interface SpanColors {
  success: string;
  error: string;
  running: string;
  warning: string;
  foreground: string;
  muted: string;
  background: string;
  focus: string;
  font: string;
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

export function readSpanColors(): SpanColors {
  const style = getComputedStyle(document.documentElement);
  return {
    success: cssVar(style, '--vscode-charts-orange', '#d18616'),
    error: cssVar(style, '--vscode-errorForeground', '#f48771'),
    running: cssVar(style, '--vscode-charts-yellow', '#cca700'),
    warning: cssVar(style, '--vscode-editorWarning-foreground', '#cca700'),
    foreground: cssVar(style, '--vscode-editor-foreground', '#cccccc'),
    muted: cssVar(style, '--vscode-descriptionForeground', '#8b8b8b'),
    background: cssVar(style, '--vscode-editor-background', '#1e1e1e'),
    focus: cssVar(style, '--vscode-focusBorder', '#007fd4'),
    font: cssVar(style, '--vscode-font-family', 'sans-serif'),
  };
}

/** Rows the strip needs for this many lanes (0: hidden). */
export function spanStripHeight(laneCount: number): number {
  return laneCount === 0 ? 0 : Math.min(laneCount, MAX_SPAN_ROWS) * SPAN_ROW_HEIGHT + 4;
}

export class SpanStrip {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  size: Size = { width: 0, height: 0 };
  colors = readSpanColors();
  private lanes: SpanLane[] = [];

  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
    this.ctx = opaqueContext(canvas);
  }

  resize(width: number, height: number): void {
    this.size = { width, height };
    sizeCanvas(this.canvas, this.ctx, width, height);
    this.canvas.style.display = height > 0 ? 'block' : 'none';
  }

  hit(store: SpanStore, viewport: Viewport, x: number, y: number): ReconcileSpan | undefined {
    const lane = this.lanes[Math.floor((y - 2) / SPAN_ROW_HEIGHT)];
    if (!lane || x < GUTTER_WIDTH) return undefined;
    const pw = plotWidth(this.size);
    const msPerPx = (viewport.end - viewport.start) / pw;
    const span = store.spanAt(lane, xToTime(viewport, x - GUTTER_WIDTH, pw), 4 * msPerPx);
    if (span) return span;
    // A warning triangle sits just before its bar.
    const ahead = store.spanAt(lane, xToTime(viewport, x - GUTTER_WIDTH + 7, pw), 6 * msPerPx);
    return ahead?.warnings?.length ? ahead : undefined;
  }

  draw(store: SpanStore, viewport: Viewport, now: number, selectedId: string | undefined): void {
    const { ctx, colors } = this;
    const { width, height } = this.size;
    if (height <= 0) return;
    this.lanes = store.lanes().slice(0, MAX_SPAN_ROWS);
    const pw = plotWidth(this.size);
    ctx.fillStyle = colors.background;
    ctx.fillRect(0, 0, width, height);
    ctx.font = `11px ${colors.font}`;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    this.lanes.forEach((lane, row) => {
      const y = 2 + row * SPAN_ROW_HEIGHT;
      ctx.fillStyle = colors.muted;
      ctx.fillText(fitRequestKey(lane.requestKey, GUTTER_WIDTH - 12, (t) => ctx.measureText(t).width), 8, y + SPAN_ROW_HEIGHT / 2);
      ctx.save();
      ctx.beginPath();
      ctx.rect(GUTTER_WIDTH, y, pw, SPAN_ROW_HEIGHT);
      ctx.clip();
      let lastX = -Infinity;
      for (const s of lane.spans) {
        const end = s.endedAt ?? now;
        if (end < viewport.start || s.startedAt > viewport.end) continue;
        const x0 = GUTTER_WIDTH + timeToX(viewport, s.startedAt, pw);
        const x1 = Math.max(x0 + 3, GUTTER_WIDTH + timeToX(viewport, end, pw));
        if (x1 <= lastX && s.id !== selectedId) continue; // one bar per pixel column is enough
        lastX = x1;
        ctx.fillStyle = s.outcome === 'error' ? colors.error : s.outcome === 'running' ? colors.running : colors.success;
        ctx.fillRect(x0, y + 3, x1 - x0, SPAN_ROW_HEIGHT - 6);
        if (s.id === selectedId) {
          ctx.strokeStyle = colors.focus;
          ctx.lineWidth = 2;
          ctx.strokeRect(x0 - 1, y + 2, x1 - x0 + 2, SPAN_ROW_HEIGHT - 4);
          ctx.lineWidth = 1;
        }
        if (s.warnings?.length) this.drawWarning(x0 - 7, y);
      }
      ctx.restore();
    });
  }

  /** A warning triangle (a stale read) just before a reconcile's bar, centred on `cx`. */
  private drawWarning(cx: number, y: number): void {
    const { ctx, colors } = this;
    ctx.fillStyle = colors.warning;
    ctx.beginPath();
    ctx.moveTo(cx, y + 1);
    ctx.lineTo(cx + 6, y + SPAN_ROW_HEIGHT - 2);
    ctx.lineTo(cx - 6, y + SPAN_ROW_HEIGHT - 2);
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = colors.background;
    ctx.fillRect(cx - 0.75, y + 5, 1.5, 5);
    ctx.fillRect(cx - 0.75, y + 11, 1.5, 1.5);
  }
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The details pane for a selected reconcile: what triggered it, what it wrote, each linked to its event. */
export function renderSpanDetails(root: HTMLElement, span: ReconcileSpan, links: SpanLink[], select: (seq: number) => void): void {
  root.hidden = false;
  const header = el('div', 'details-header');
  header.append(
    el('span', `badge span-${span.outcome}`, 'RECONCILE'),
    el('span', 'details-title', `${span.kind} ${span.key}`),
    el('div', 'details-meta', `#${span.seq} · ${span.controller} · ${span.endedAt === undefined ? 'running' : `${formatSpan(span.endedAt - span.startedAt)} · ${span.outcome}`}${span.detail ? ` · ${span.detail}` : ''}`),
  );
  const children: HTMLElement[] = [header];
  if (span.warnings?.length) {
    children.push(el('h3', 'details-subtitle', `Warnings (${span.warnings.length})`));
    const list = el('ul', 'span-links');
    for (const w of span.warnings) list.append(el('li', 'span-link warning', w));
    children.push(list);
  }
  for (const role of ['trigger', 'write'] as const) {
    const items = links.filter((l) => l.role === role);
    children.push(el('h3', 'details-subtitle', role === 'trigger' ? `Triggered by (${items.length})` : `Writes (${items.length})`));
    const list = el('ul', 'span-links');
    if (items.length === 0) list.append(el('li', 'details-note', role === 'trigger' ? 'none recorded' : 'no writes'));
    for (const link of items) {
      const li = el('li', link.error ? 'span-link error' : 'span-link');
      const text = `${link.label}${link.resourceVersion ? ` · rv ${link.resourceVersion}` : ''}${link.error ? ` · ${link.error}` : ''}`;
      const linked = link.event;
      if (linked) {
        const a = el('a', 'span-link-target', text);
        a.href = '#';
        a.title = `Select event #${linked.seq} on the timeline`;
        a.addEventListener('click', (e) => {
          e.preventDefault();
          select(linked.seq);
        });
        li.append(a);
      } else {
        li.append(el('span', undefined, text));
        if (link.resourceVersion && !link.error) li.append(el('span', 'details-note', ' (not on the timeline — watch this resource to see it)'));
      }
      list.append(li);
    }
    children.push(list);
  }
  root.replaceChildren(...children);
  root.dataset['span'] = span.id;
}

