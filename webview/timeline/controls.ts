import type { TimelineEventType } from '../../src/shared/protocol/timeline.ts';
import { TIMELINE_EVENT_TYPES } from '../../src/shared/protocol/timeline.ts';
import { MARKER_STYLES } from './markerStyles.ts';
import type { TimelineFilters } from './filters.ts';

// The toolbar: follow-live, zoom buttons, filters (resource, namespace, name, event types) and the
// shown-event count. Toolkit elements are plain custom elements here; toolkit.ts registered them.

export interface ControlEvents {
  follow(on: boolean): void;
  zoom(factor: number): void;
  fit(): void;
  filter(patch: Partial<TimelineFilters>): void;
  clear(): void;
}


type ValueElement = HTMLElement & { value: string; checked?: boolean };

function make<T extends HTMLElement = HTMLElement>(tag: string, attrs: Record<string, string> = {}, text?: string): T {
  const node = document.createElement(tag) as T;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

export class Toolbar {
  private readonly hint: HTMLElement;

  /** Shows the "click an event" hint while nothing is selected. */
  setHint(visible: boolean): void {
    this.hint.hidden = !visible;
  }
  readonly root: HTMLElement;
  private readonly follow: ValueElement;
  private readonly resource: ValueElement;
  private readonly namespace: ValueElement;
  private readonly name: ValueElement;
  private readonly count: HTMLElement;
  private readonly rate: HTMLElement;
  private resourceOptions = '';
  private namespaceOptions = '';

  constructor(events: ControlEvents) {
    this.root = make('header', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Timeline controls' });

    this.follow = make<ValueElement>('vscode-checkbox', { id: 'follow', checked: '' }, 'Follow live');
    this.follow.addEventListener('change', () => events.follow(!!this.follow.checked));

    const zoomIn = make('vscode-button', { id: 'zoom-in', appearance: 'icon', 'aria-label': 'Zoom in', title: 'Zoom in (+)' }, '+');
    const zoomOut = make('vscode-button', { id: 'zoom-out', appearance: 'icon', 'aria-label': 'Zoom out', title: 'Zoom out (−)' }, '−');
    const fit = make('vscode-button', { id: 'zoom-fit', appearance: 'secondary', title: 'Show every event (0)' }, 'Fit');
    const clear = make('vscode-button', { id: 'clear', appearance: 'secondary', title: 'Forget the events shown so far' }, 'Clear');
    zoomIn.addEventListener('click', () => events.zoom(0.5));
    zoomOut.addEventListener('click', () => events.zoom(2));
    fit.addEventListener('click', () => events.fit());
    clear.addEventListener('click', () => events.clear());

    this.resource = make<ValueElement>('vscode-dropdown', { id: 'filter-resource', 'aria-label': 'Resource' });
    this.namespace = make<ValueElement>('vscode-dropdown', { id: 'filter-namespace', 'aria-label': 'Namespace' });
    this.setOptions(this.resource, [], 'All resources');
    this.setOptions(this.namespace, [], 'All namespaces');
    this.resource.addEventListener('change', () => events.filter({ resource: this.resource.value }));
    this.namespace.addEventListener('change', () => events.filter({ namespace: this.namespace.value }));

    this.name = make<ValueElement>('vscode-text-field', { id: 'filter-name', placeholder: 'Name contains…', 'aria-label': 'Name contains' });
    this.name.addEventListener('input', () => events.filter({ name: this.name.value }));

    const types = make('div', { class: 'types', id: 'type-filters', role: 'group', 'aria-label': 'Event types' });
    for (const type of TIMELINE_EVENT_TYPES) {
      const box = make<ValueElement>('vscode-checkbox', { id: `type-${type.toLowerCase()}`, checked: '', 'data-type': type });
      const swatch = make('span', { class: `swatch type-${type.toLowerCase()}`, 'aria-hidden': 'true' });
      box.append(swatch, document.createTextNode(MARKER_STYLES[type].label));
      box.addEventListener('change', () => events.filter({ types: { [type]: !!box.checked } as Record<TimelineEventType, boolean> }));
      types.append(box);
    }

    this.count = make('span', { id: 'event-count', class: 'count', 'aria-live': 'polite' }, '0 events');
    this.rate = make('span', { id: 'time-window', class: 'count' }, '');

    const row1 = make('div', { class: 'row' });
    row1.append(this.follow, zoomIn, zoomOut, fit, clear, this.resource, this.namespace, this.name, make('span', { class: 'spacer' }), this.rate, this.count);
    const row2 = make('div', { class: 'row' });
    // Shown while nothing is selected: the details pane then gives its width to the chart.
    this.hint = make('span', { class: 'hint', id: 'select-hint' });
    this.hint.textContent = 'Click an event (or focus the chart and use the arrow keys) to see what changed.';
    row2.append(types, this.hint);
    this.root.append(row1, row2);
  }

  setFollow(on: boolean): void {
    if (!!this.follow.checked !== on) this.follow.checked = on;
  }

  setCount(shown: number, total: number): void {
    const text = shown === total ? `${shown.toLocaleString('en-US')} events` : `${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} events`;
    if (this.count.textContent !== text) this.count.textContent = text;
    this.count.dataset['shown'] = String(shown);
    this.count.dataset['total'] = String(total);
  }

  setRate(text: string): void {
    if (this.rate.textContent !== text) this.rate.textContent = text;
  }

  setResources(resources: string[], selected: string): void {
    const key = resources.join('\n');
    if (key !== this.resourceOptions) {
      this.resourceOptions = key;
      this.setOptions(this.resource, resources, 'All resources');
    }
    if (this.resource.value !== selected) this.resource.value = selected;
  }

  setNamespaces(namespaces: string[], selected: string): void {
    const key = namespaces.join('\n');
    if (key !== this.namespaceOptions) {
      this.namespaceOptions = key;
      this.setOptions(this.namespace, namespaces, 'All namespaces');
    }
    if (this.namespace.value !== selected) this.namespace.value = selected;
  }

  setTypes(types: Record<TimelineEventType, boolean>): void {
    for (const type of TIMELINE_EVENT_TYPES) {
      const box = this.root.querySelector<ValueElement>(`#type-${type.toLowerCase()}`);
      if (box && !!box.checked !== types[type]) box.checked = types[type];
    }
  }

  setName(name: string): void {
    if (this.name.value !== name) this.name.value = name;
  }

  private setOptions(dropdown: ValueElement, values: string[], allLabel: string): void {
    const current = dropdown.value ?? '';
    const options = [make('vscode-option', { value: '' }, allLabel), ...values.map((v) => make('vscode-option', { value: v }, v))];
    dropdown.replaceChildren(...options);
    if (current && values.includes(current)) dropdown.value = current;
  }
}
