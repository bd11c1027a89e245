import { GUTTER_WIDTH } from './layout.ts';
import { rateBins } from './rate.ts';
import type { TimelineState } from './state.ts';
import type { Palette } from './theme.ts';
import { sizeCanvas } from './canvas.ts';

// The events-per-second area plot above the lanes, sharing their time axis.

export class RatePlot {
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private width = 0;
  private height = 0;
  /** The peak rate in the window, for the DOM label and tests. */
  peak = 0;

  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    this.ctx = ctx;
  }

  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    sizeCanvas(this.canvas, this.ctx, width, height);
  }

  draw(state: TimelineState, palette: Palette): void {
    const { ctx, width, height } = this;
    ctx.clearRect(0, 0, width, height);
    const pw = Math.max(1, width - GUTTER_WIDTH);
    const bins = rateBins(state.view.times, state.viewport, Math.max(1, Math.floor(pw / 3)));
    this.peak = bins.max;
    ctx.font = `11px ${palette.font}`;
    ctx.textBaseline = 'middle';
    ctx.fillStyle = palette.muted;
    ctx.textAlign = 'left';
    ctx.fillText('events/s', 8, height / 2 - 7);
    ctx.fillStyle = palette.foreground;
    ctx.fillText(`peak ${formatRate(bins.max)}`, 8, height / 2 + 8);
    if (bins.max <= 0) return;
    const top = 4;
    const usable = height - top - 2;
    const binW = pw / bins.rates.length;
    ctx.beginPath();
    ctx.moveTo(GUTTER_WIDTH, height);
    for (let i = 0; i < bins.rates.length; i++) {
      const y = height - 1 - ((bins.rates[i] ?? 0) / bins.max) * usable;
      ctx.lineTo(GUTTER_WIDTH + i * binW, y);
      ctx.lineTo(GUTTER_WIDTH + (i + 1) * binW, y);
    }
    ctx.lineTo(GUTTER_WIDTH + pw, height);
    ctx.closePath();
    ctx.fillStyle = palette.types.MODIFIED;
    ctx.globalAlpha = 0.3;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.strokeStyle = palette.types.MODIFIED;
    ctx.stroke();
  }
}

export function formatRate(rate: number): string {
  return rate >= 100 ? rate.toFixed(0) : rate >= 10 ? rate.toFixed(1) : rate.toFixed(2);
}
