import type { ClientInfo } from '../sim/index.ts';

// `controller-lab sim clients` as a person reads it: one row per client (who, since when, what it
// lists, watches and writes), then one row per watch (resource, scope, since when, how far it got). `-o json` prints the admin endpoint's answer unchanged.

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function table(rows: string[][]): string {
  // A loop, not Math.max(...column): a column of 150,000 cells is past the arguments a call takes.
  const widths = rows[0]!.map(() => 0);
  for (const r of rows) r.forEach((cell, c) => (widths[c] = Math.max(widths[c] ?? 0, cell.length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ').trimEnd()).join('\n');
}

/** A client as a person names it: its user agent, and who it acts as when that is not the admin. */
function clientName(c: ClientInfo): string {
  const agent = c.userAgent || '(no user agent)';
  return c.user ? `${agent} as ${c.user}` : agent;
}

export function formatClientsTable(clients: readonly ClientInfo[], now: number): string {
  if (clients.length === 0) return 'No clients have talked to this simulated cluster yet.\n';
  const sorted = [...clients].sort((a, b) => b.lastSeen - a.lastSeen);
  const rows: string[][] = [['CLIENT', 'LAST SEEN', 'LISTS', 'WATCHES', 'WRITES', 'ERRORS']];
  for (const c of sorted) {
    const open = c.watches.filter((w) => w.open).length;
    rows.push([clientName(c), `${ago(now - c.lastSeen)} ago`, String(c.lists), `${open} open / ${c.watches.length}`, String(c.writes), String(c.errors)]);
  }
  const out = [table(rows)];
  const watchRows: string[][] = [['CLIENT', 'WATCH', 'NAMESPACE', 'SELECTOR', 'STARTED', 'LAST RV', 'EVENTS', 'STATE']];
  for (const c of sorted) {
    for (const w of c.watches) {
      watchRows.push([
        clientName(c),
        w.resource,
        w.namespace || '(all)',
        [w.labelSelector, w.fieldSelector].filter(Boolean).join(',') || '-',
        `${ago(now - w.startedAt)} ago`,
        w.lastResourceVersion || '-',
        String(w.events),
        w.open ? 'open' : `closed (${w.closeReason ?? 'ended'})`,
      ]);
    }
  }
  if (watchRows.length > 1) out.push('', table(watchRows));
  return `${out.join('\n')}\n`;
}
