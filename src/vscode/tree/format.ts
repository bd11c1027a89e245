import type { KubeObject } from '../../shared/k8s.ts';

// Words and numbers as the tree shows them. Pure; the tree model and its tests use these.

export function relativeTime(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ago`;
  return `${Math.floor(h / 24)}d ago`;
}

export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`;
}

/** Escapes text for a MarkdownString (VS Code renders tooltips as markdown). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]#|<>]/g, '\\$&');
}

export function describeObject(rv: string, change: string, ageMs: number): string {
  return `rv ${rv} · ${change} ${relativeTime(ageMs)}`;
}

/** The tooltip of an object row: identity, generation, labels, last event. */
export function objectTooltip(obj: Readonly<KubeObject>, change: string, ageMs: number): string {
  const m = obj.metadata;
  const rows: [string, string][] = [
    ['uid', m.uid ?? '—'],
    ['resourceVersion', m.resourceVersion ?? '—'],
    ['generation', m.generation === undefined ? '—' : String(m.generation)],
    ['created', m.creationTimestamp ?? '—'],
  ];
  if (m.deletionTimestamp) rows.push(['deleting since', m.deletionTimestamp]);
  if (m.finalizers?.length) rows.push(['finalizers', m.finalizers.join(', ')]);
  const owner = m.ownerReferences?.[0];
  if (owner) rows.push(['owner', `${owner.kind}/${owner.name}`]);
  const labels = Object.entries(m.labels ?? {}).map(([k, v]) => `${k}=${v}`);
  rows.push(['labels', labels.length ? labels.join(', ') : '—']);
  rows.push(['last event', `${change} ${relativeTime(ageMs)}`]);
  const title = `**${escapeMarkdown(obj.kind ?? 'Object')} ${escapeMarkdown(m.namespace ? `${m.namespace}/` : '')}${escapeMarkdown(m.name ?? '')}**`;
  const table = ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${escapeMarkdown(k)} | ${escapeMarkdown(v)} |`)];
  return [title, '', ...table].join('\n');
}
