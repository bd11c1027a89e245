import type { Probe } from '../../informer/index.ts';
import { count, escapeMarkdown } from '../tree/format.ts';

// A controller's informers as its probes describe them: synced or not, last RV, events, relists,
// 410s and errors; and how an Informers row says so.

export interface InformerStats {
  name: string;
  synced: boolean;
  lastResourceVersion: string;
  items: number;
  events: number;
  relists: number;
  expired: number;
  errors: number;
  lastError?: string;
}

export function applyProbe(informers: Map<string, InformerStats>, probe: Probe): void {
  let i = informers.get(probe.informer);
  if (!i) {
    i = { name: probe.informer, synced: false, lastResourceVersion: '', items: 0, events: 0, relists: 0, expired: 0, errors: 0 };
    informers.set(probe.informer, i);
  }
  switch (probe.kind) {
    case 'listEnd': i.lastResourceVersion = probe.resourceVersion; i.items = probe.items; break;
    case 'event': i.events++; i.lastResourceVersion = probe.resourceVersion || i.lastResourceVersion; break;
    case 'relist': i.relists++; break;
    case 'expired': i.expired++; break;
    case 'error': i.errors++; i.lastError = probe.message; break;
    case 'synced': i.synced = true; i.items = probe.items; i.lastResourceVersion = probe.resourceVersion || i.lastResourceVersion; i.lastError = undefined; break;
    case 'stopped': i.synced = false; break;
    default: break;
  }
}

export function informerDescription(i: InformerStats): string {
  const parts = [i.synced ? 'synced' : 'syncing', i.lastResourceVersion ? `rv ${i.lastResourceVersion}` : '', count(i.events, 'event')];
  if (i.relists) parts.push(`⟳ ${i.relists}`);
  if (i.expired) parts.push(`410 × ${i.expired}`);
  if (i.errors) parts.push(count(i.errors, 'error'));
  return parts.filter(Boolean).join(' · ');
}

export function informerTooltip(i: InformerStats): string {
  return [
    `**${escapeMarkdown(i.name)}** — ${i.synced ? 'synced' : 'syncing'}`,
    '',
    '| | |',
    '|---|---|',
    `| last RV | ${escapeMarkdown(i.lastResourceVersion || '—')} |`,
    `| objects listed | ${i.items} |`,
    `| watch events | ${i.events} |`,
    `| relists | ${i.relists} |`,
    `| 410 Expired | ${i.expired} |`,
    `| errors | ${i.errors} |`,
    ...(i.lastError ? ['', `last error: ${escapeMarkdown(i.lastError)}`] : []),
  ].join('\n');
}
