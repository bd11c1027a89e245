import type { TimelineEvent } from '../../src/shared/protocol/timeline.ts';
import { MARKER_STYLES } from './markerStyles.ts';
import { opaqueContext, sizeCanvas } from './canvas.ts';
import type { Lane } from './eventStore.ts';
import { fitLaneLabel } from './laneLabelFit.ts';
import { markerAt, placeMarkers } from './markerLayout.ts';
import type { PlacedMarker } from './markerLayout.ts';
import { AXIS_HEIGHT, GUTTER_WIDTH, HIT_RADIUS, ROW_HEIGHT, formatTick, plotWidth, tickStep } from './layout.ts';
import type { Size } from './layout.ts';
import type { TimelineState } from './state.ts';
import type { Palette } from './theme.ts';
import { timeToX } from './viewport.ts';

// Draws the lanes: only the rows on screen, and within each row only the events in the time window
// (binary search), each marker clear of the one before (markerLayout.ts). So a frame draws
// O(visible rows × width) markers however many events the store holds.

export class LaneRenderer {
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  size: Size = { width: 0, height: 0 };

  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
    this.ctx = opaqueContext(canvas);
  }

  resize(width: number, height: number): void {
    this.size = { width, height };
    sizeCanvas(this.canvas, this.ctx, width, height);
  }

  /** The visible lane under a y coordinate. */
  laneAt(state: TimelineState, y: number): Lane | undefined {
    if (y < AXIS_HEIGHT) return undefined;
    return state.view.lanes[state.laneScroll + Math.floor((y - AXIS_HEIGHT) / ROW_HEIGHT)];
  }

  /** The shown event whose marker is nearest to (x, y), within the hit radius. */
  hit(state: TimelineState, x: number, y: number): TimelineEvent | undefined {
    const lane = this.laneAt(state, y);
    if (!lane || x < GUTTER_WIDTH) return undefined;
    return markerAt(this.place(state, lane), Math.round(x), HIT_RADIUS);
  }

  /** The lane's markers in the time window, where they are drawn. */
  private place(state: TimelineState, lane: Lane): PlacedMarker[] {
    const pw = plotWidth(this.size);
    const vp = state.viewport;
    const [from, to] = state.store.laneRange(lane, vp.start, vp.end);
    return placeMarkers(lane.events, from, to, (e) => state.filters.types[e.type], (at) => Math.round(GUTTER_WIDTH + timeToX(vp, at, pw)));
  }

  draw(state: TimelineState, palette: Palette, focused: boolean): void {
    const { ctx } = this;
    const { width, height } = this.size;
    const pw = plotWidth(this.size);
    const vp = state.viewport;
    ctx.fillStyle = palette.background;
    ctx.fillRect(0, 0, width, height);
    ctx.font = `12px ${palette.font}`;
    ctx.textBaseline = 'middle';

    const selected = state.selectedSeq === undefined ? undefined : state.store.bySeq(state.selectedSeq);
    const lanes = state.view.lanes;
    const last = Math.min(lanes.length, state.laneScroll + Math.ceil((height - AXIS_HEIGHT) / ROW_HEIGHT));

    // Row backgrounds and labels.
    const showCluster = state.store.clusters().length > 1;
    for (let row = state.laneScroll; row < last; row++) {
      const lane = lanes[row] as Lane;
      const y = AXIS_HEIGHT + (row - state.laneScroll) * ROW_HEIGHT;
      if (selected?.lane === lane) {
        ctx.fillStyle = palette.selection;
        ctx.globalAlpha = 0.35;
        ctx.fillRect(0, y, width, ROW_HEIGHT);
        ctx.globalAlpha = 1;
      } else if (row % 2 === 1) {
        ctx.fillStyle = palette.rowAlt;
        ctx.fillRect(0, y, width, ROW_HEIGHT);
      }
      this.drawLabel(lane, y, palette, showCluster);
    }

    // Time grid and axis.
    const step = tickStep(vp.end - vp.start, pw);
    ctx.strokeStyle = palette.grid;
    ctx.lineWidth = 1;
    ctx.fillStyle = palette.muted;
    ctx.textAlign = 'left';
    for (let t = Math.ceil(vp.start / step) * step; t <= vp.end; t += step) {
      const x = Math.round(GUTTER_WIDTH + timeToX(vp, t, pw)) + 0.5;
      ctx.globalAlpha = 0.5;
      ctx.beginPath();
      ctx.moveTo(x, AXIS_HEIGHT - 4);
      ctx.lineTo(x, height);
      ctx.stroke();
      ctx.globalAlpha = 1;
      ctx.fillText(formatTick(t, step), x + 3, AXIS_HEIGHT / 2);
    }
    ctx.beginPath();
    ctx.moveTo(0, AXIS_HEIGHT - 0.5);
    ctx.lineTo(width, AXIS_HEIGHT - 0.5);
    ctx.moveTo(GUTTER_WIDTH - 0.5, 0);
    ctx.lineTo(GUTTER_WIDTH - 0.5, height);
    ctx.stroke();

    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER_WIDTH, AXIS_HEIGHT, pw, height - AXIS_HEIGHT);
    ctx.clip();

    // Relists and 410s concern every object: draw them across the whole plot.
    for (const lane of lanes) {
      if (!lane.isInformerLane) continue;
      const [from, to] = state.store.laneRange(lane, vp.start, vp.end);
      let lastX = -1;
      for (let i = from; i < to; i++) {
        const e = lane.events[i] as TimelineEvent;
        if (!MARKER_STYLES[e.type].acrossPlot || !state.filters.types[e.type]) continue;
        const x = Math.round(GUTTER_WIDTH + timeToX(vp, e.at, pw)) + 0.5;
        if (x === lastX) continue;
        lastX = x;
        ctx.strokeStyle = palette.types[e.type];
        ctx.globalAlpha = 0.45;
        ctx.setLineDash([4, 3]);
        ctx.beginPath();
        ctx.moveTo(x, AXIS_HEIGHT);
        ctx.lineTo(x, height);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.globalAlpha = 1;
      }
    }

    // Markers, each clear of the one before (markerLayout.ts); the selection is ringed where its marker went.
    let selectedX: number | undefined;
    for (let row = state.laneScroll; row < last; row++) {
      const lane = lanes[row] as Lane;
      const cy = AXIS_HEIGHT + (row - state.laneScroll) * ROW_HEIGHT + ROW_HEIGHT / 2;
      for (const { event, x } of this.place(state, lane)) {
        this.drawMarker(event, x, cy, palette);
        if (event.seq === selected?.event.seq) selectedX = x;
      }
    }

    // The selection: a ring that keyboard users can find.
    if (selected && selected.lane.visible) {
      const row = lanes.indexOf(selected.lane);
      if (row >= state.laneScroll && row < last) {
        const x = selectedX ?? GUTTER_WIDTH + timeToX(vp, selected.event.at, pw);
        const cy = AXIS_HEIGHT + (row - state.laneScroll) * ROW_HEIGHT + ROW_HEIGHT / 2;
        ctx.strokeStyle = focused ? palette.focus : palette.foreground;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(x, cy, 7.5, 0, Math.PI * 2);
        ctx.stroke();
        ctx.lineWidth = 1;
      }
    }
    ctx.restore();

    // A scroll indicator when there are more lanes than rows.
    if (lanes.length > state.laneRows) {
      const trackH = height - AXIS_HEIGHT;
      const thumbH = Math.max(16, (trackH * state.laneRows) / lanes.length);
      const thumbY = AXIS_HEIGHT + ((trackH - thumbH) * state.laneScroll) / Math.max(1, lanes.length - state.laneRows);
      ctx.fillStyle = palette.muted;
      ctx.globalAlpha = 0.4;
      ctx.fillRect(width - 5, thumbY, 4, thumbH);
      ctx.globalAlpha = 1;
    }

    if (lanes.length === 0) {
      ctx.fillStyle = palette.muted;
      ctx.textAlign = 'center';
      ctx.fillText(state.store.size === 0 ? 'No events yet — start an informer (Watch Resource…)' : 'No events match the filters', GUTTER_WIDTH + pw / 2, AXIS_HEIGHT + 40);
    }
  }

  private drawLabel(lane: Lane, y: number, palette: Palette, showCluster: boolean): void {
    const { ctx } = this;
    ctx.textAlign = 'left';
    const cy = y + ROW_HEIGHT / 2;
    const max = GUTTER_WIDTH - 12;
    // The namespace stays with the name; the kind gives way first (laneLabelFit.ts).
    const label = fitLaneLabel(lane, showCluster, max, (t) => ctx.measureText(t).width);
    ctx.fillStyle = palette.muted;
    ctx.fillText(label.prefix, 8, cy);
    const w = ctx.measureText(label.prefix).width;
    ctx.fillStyle = lane.isInformerLane ? palette.muted : palette.foreground;
    ctx.fillText(label.name, 8 + w, cy);
    if (label.suffix) {
      ctx.fillStyle = palette.muted;
      ctx.fillText(label.suffix, 8 + w + ctx.measureText(label.name).width, cy);
    }
  }

  private drawMarker(e: TimelineEvent, x: number, cy: number, palette: Palette): void {
    const { ctx } = this;
    ctx.fillStyle = palette.types[e.type];
    ctx.strokeStyle = palette.types[e.type];
    switch (MARKER_STYLES[e.type].shape) {
      case 'triangle':
        ctx.beginPath();
        ctx.moveTo(x, cy - 5);
        ctx.lineTo(x + 5, cy + 4);
        ctx.lineTo(x - 5, cy + 4);
        ctx.closePath();
        ctx.fill();
        break;
      case 'dot':
        ctx.beginPath();
        ctx.arc(x, cy, 4, 0, Math.PI * 2);
        ctx.fill();
        break;
      case 'cross':
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(x - 4, cy - 4);
        ctx.lineTo(x + 4, cy + 4);
        ctx.moveTo(x + 4, cy - 4);
        ctx.lineTo(x - 4, cy + 4);
        ctx.stroke();
        ctx.lineWidth = 1;
        break;
      case 'diamond':
        ctx.beginPath();
        ctx.moveTo(x, cy - 4);
        ctx.lineTo(x + 3, cy);
        ctx.lineTo(x, cy + 4);
        ctx.lineTo(x - 3, cy);
        ctx.closePath();
        ctx.fill();
        break;
      case 'square':
        ctx.fillRect(x - 4, cy - 4, 8, 8);
        break;
      case 'bar':
        ctx.fillRect(x - 1, cy - 7, 3, 14);
        break;
      case 'slashedRing':
        // An event that reached a controller and enqueued nothing: "no entry" over its marker
        // (smaller than the selection's ring, which can enclose it).
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(x, cy, 6.5, 0, Math.PI * 2);
        ctx.moveTo(x - 4.6, cy + 4.6);
        ctx.lineTo(x + 4.6, cy - 4.6);
        ctx.stroke();
        ctx.lineWidth = 1;
        break;
      case 'bolt':
        // A lightning bolt: something was done to the run.
        ctx.beginPath();
        ctx.moveTo(x + 2, cy - 8);
        ctx.lineTo(x - 4, cy + 1);
        ctx.lineTo(x, cy + 1);
        ctx.lineTo(x - 2, cy + 8);
        ctx.lineTo(x + 4, cy - 1);
        ctx.lineTo(x, cy - 1);
        ctx.closePath();
        ctx.fill();
        break;
    }
  }
}
