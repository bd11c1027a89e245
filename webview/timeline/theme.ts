import type { TimelineEventType } from '../../src/shared/protocol/timeline.ts';
import { MARKER_STYLES } from './markerStyles.ts';

// Colours come from VS Code's theme variables, so light, dark and high-contrast themes all work;
// they are re-read when the theme changes (VS Code swaps the body's class).

export interface Palette {
  foreground: string;
  muted: string;
  grid: string;
  rowAlt: string;
  selection: string;
  focus: string;
  background: string;
  font: string;
  types: Record<TimelineEventType, string>;
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const v = style.getPropertyValue(name).trim();
  return v || fallback;
}

export function readPalette(): Palette {
  const style = getComputedStyle(document.documentElement);
  const fg = cssVar(style, '--vscode-editor-foreground', '#cccccc');
  return {
    foreground: fg,
    muted: cssVar(style, '--vscode-descriptionForeground', '#8b8b8b'),
    grid: cssVar(style, '--vscode-editorWidget-border', cssVar(style, '--vscode-panel-border', '#80808040')),
    rowAlt: cssVar(style, '--vscode-list-hoverBackground', '#80808014'),
    selection: cssVar(style, '--vscode-list-activeSelectionBackground', '#094771'),
    focus: cssVar(style, '--vscode-focusBorder', '#007fd4'),
    background: cssVar(style, '--vscode-editor-background', '#1e1e1e'),
    font: cssVar(style, '--vscode-font-family', 'sans-serif'),
    types: Object.fromEntries(Object.entries(MARKER_STYLES).map(([type, m]) => [type, cssVar(style, m.color[0], m.color[1])])) as Record<TimelineEventType, string>,
  };
}

export function onThemeChange(listener: () => void): void {
  new MutationObserver(listener).observe(document.body, { attributes: true, attributeFilter: ['class'] });
}
