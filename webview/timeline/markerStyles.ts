import type { TimelineEventType } from '../../src/shared/protocol/timeline.ts';

// How each kind of timeline marker looks, in one place: its filter label, its colour (a theme
// variable, with a fallback), its shape, and whether it concerns the whole informer (a relist,
// a 410) and so is also drawn across the plot. A new marker type is one entry here.

export type MarkerShape = 'triangle' | 'dot' | 'cross' | 'diamond' | 'square' | 'bar' | 'bolt' | 'slashedRing';

export interface MarkerStyle {
  label: string;
  color: readonly [cssVariable: string, fallback: string];
  shape: MarkerShape;
  acrossPlot?: true;
  /** Drawn over the event it concerns, not an event of its own: not counted in events/s. */
  overlay?: true;
}

export const MARKER_STYLES: Record<TimelineEventType, MarkerStyle> = {
  ADDED: { label: 'Added', color: ['--vscode-charts-green', '#89d185'], shape: 'triangle' },
  MODIFIED: { label: 'Modified', color: ['--vscode-charts-blue', '#3794ff'], shape: 'dot' },
  DELETED: { label: 'Deleted', color: ['--vscode-charts-red', '#f14c4c'], shape: 'cross' },
  BOOKMARK: { label: 'Bookmark', color: ['--vscode-charts-lines', '#808080'], shape: 'diamond' },
  ERROR: { label: 'Error', color: ['--vscode-errorForeground', '#f48771'], shape: 'square' },
  RELIST: { label: 'Relist', color: ['--vscode-charts-purple', '#b180d7'], shape: 'bar', acrossPlot: true },
  EXPIRED: { label: '410 Expired', color: ['--vscode-charts-yellow', '#cca700'], shape: 'bar', acrossPlot: true },
  PERTURBATION: { label: 'Perturbation', color: ['--vscode-terminal-ansiMagenta', '#bc3fbc'], shape: 'bolt', acrossPlot: true },
  // Over the event it concerns, on the same lane: its own marker stays visible inside, struck through.
  MISSED: { label: 'Missed (enqueued nothing)', color: ['--vscode-charts-orange', '#d18616'], shape: 'slashedRing', overlay: true },
};
