import type { TimelineEventType } from '../../src/shared/protocol/timeline.ts';

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
    types: {
      ADDED: cssVar(style, '--vscode-charts-green', '#89d185'),
      MODIFIED: cssVar(style, '--vscode-charts-blue', '#3794ff'),
      DELETED: cssVar(style, '--vscode-charts-red', '#f14c4c'),
      BOOKMARK: cssVar(style, '--vscode-charts-lines', '#808080'),
      ERROR: cssVar(style, '--vscode-errorForeground', '#f48771'),
      RELIST: cssVar(style, '--vscode-charts-purple', '#b180d7'),
      EXPIRED: cssVar(style, '--vscode-charts-yellow', '#cca700'),
    },
  };
}

export function onThemeChange(listener: () => void): void {
  new MutationObserver(listener).observe(document.body, { attributes: true, attributeFilter: ['class'] });
}
