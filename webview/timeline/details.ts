import type { DiffLine, EventDetails, TimelineEvent } from '../../src/shared/protocol/timeline.ts';

// The details pane: what the selected event was, and the line diff of the object against its
// previous version. Built with DOM nodes and textContent only (object content is never HTML).

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function timeOf(at: number): string {
  const d = new Date(at);
  return `${d.toLocaleTimeString(undefined, { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

export interface DetailsActions {
  open(seq: number): void;
  compare(seq: number): void;
  why(seq: number): void;
}

export class DetailsPane {
  private readonly root: HTMLElement;
  private readonly actions: DetailsActions;

  constructor(root: HTMLElement, actions: DetailsActions) {
    this.root = root;
    this.actions = actions;
    this.empty();
  }

  /** Nothing selected: the pane hides, so the chart gets the whole width (the toolbar says what to do). */
  empty(): void {
    this.root.replaceChildren(el('p', 'details-empty', 'Select an event (click, or focus the timeline and use the arrow keys) to see what changed.'));
    this.root.dataset['seq'] = '';
    this.root.hidden = true;
  }

  loading(event: TimelineEvent): void {
    this.root.hidden = false;
    this.root.replaceChildren(this.header(event), el('p', 'details-note', 'Loading…'));
    this.root.dataset['seq'] = String(event.seq);
  }

  show(details: EventDetails): void {
    this.root.hidden = false;
    const { event } = details;
    const children: HTMLElement[] = [this.header(event)];
    if (event.name) {
      const buttons = el('div', 'details-actions');
      const open = document.createElement('vscode-button');
      open.textContent = 'Open object';
      open.setAttribute('appearance', 'secondary');
      open.addEventListener('click', () => this.actions.open(event.seq));
      buttons.append(open);
      if (details.diff) {
        const compare = document.createElement('vscode-button');
        compare.textContent = 'Compare in editor';
        compare.setAttribute('appearance', 'secondary');
        compare.addEventListener('click', () => this.actions.compare(event.seq));
        buttons.append(compare);
      }
      const why = document.createElement('vscode-button');
      why.textContent = 'Why (not)?';
      why.setAttribute('appearance', 'secondary');
      why.title = 'Whether each running controller reconciled this change, and why not';
      why.addEventListener('click', () => this.actions.why(event.seq));
      buttons.append(why);
      children.push(buttons);
    }
    if (details.note) children.push(el('p', 'details-note', details.note));
    if (details.diff) {
      const added = details.diff.filter((l) => l.op === '+').length;
      const removed = details.diff.filter((l) => l.op === '-').length;
      children.push(el('h3', 'details-subtitle', `Diff rv ${details.previousResourceVersion ?? '?'} → ${event.resourceVersion}  (+${added} −${removed})`));
      children.push(renderDiff(details.diff));
    } else if (details.yaml) {
      children.push(el('h3', 'details-subtitle', `Object at rv ${event.resourceVersion}`));
      children.push(renderDiff(details.yaml.replace(/\n$/, '').split('\n').map((text) => ({ op: ' ', text }))));
    }
    this.root.replaceChildren(...children);
    this.root.dataset['seq'] = String(event.seq);
  }

  error(event: TimelineEvent, message: string): void {
    this.root.hidden = false;
    this.root.replaceChildren(this.header(event), el('p', 'details-note error', message));
  }

  private header(event: TimelineEvent): HTMLElement {
    const header = el('div', 'details-header');
    const badge = el('span', `badge type-${event.type.toLowerCase()}`, event.type);
    const title = el('span', 'details-title', event.name ? `${event.kind ?? event.resource} ${event.namespace ? `${event.namespace}/` : ''}${event.name}` : event.informer);
    const meta = el('div', 'details-meta', `rv ${event.resourceVersion || '—'} · ${timeOf(event.at)} · #${event.seq}${event.cluster ? ` · ${event.cluster}` : ''}`);
    header.append(badge, title, meta);
    return header;
  }
}

function renderDiff(lines: DiffLine[]): HTMLElement {
  const pre = el('pre', 'diff');
  const cls = { ' ': 'diff-line same', '+': 'diff-line add', '-': 'diff-line del' } as const;
  for (const line of lines) {
    pre.append(el('span', cls[line.op], `${line.op} ${line.text}\n`));
  }
  return pre;
}
