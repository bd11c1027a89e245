import type { Probe } from '../../informer/index.ts';
import type { ControllerShape, QueueKeySnapshot, QueueSnapshot, ReconcileRecord, RequeueDecision } from '../../runtime/index.ts';
import { splitKey } from '../../shared/keys.ts';
import type { ReconcileSpan } from '../../shared/protocol/reconcileSpans.ts';
import type { NewTimelineEvent } from '../timeline/eventRing.ts';
import { count, escapeMarkdown } from '../tree/format.ts';

// Live inspection of running controllers, as plain data: what the Controller Lab
// tree shows for every controller session — its state, reconciles and errors, its informers (from
// their probes) and its workqueue (per key: queued, processing, or waiting with retries and backoff).
// Pure (no vscode): the runtime's events come in through `track`, the tree reads nodes and items.
//
//   Controllers ── controller ─┬─ Informers ── informer (synced, last RV, events, relists, 410s)
//                              └─ Workqueue ── key (queued / processing / waiting · retries · backoff)

/** The slice of a ControllerSession this model listens to (the runtime's TypedEmitter). */
export interface SessionLike {
  on(event: 'ready', l: (p: { controller: ControllerShape }) => void): { dispose(): void };
  on(event: 'synced', l: (p: Record<string, never>) => void): { dispose(): void };
  on(event: 'reconcileStart' | 'reconcileEnd', l: (p: { record: ReconcileRecord }) => void): { dispose(): void };
  on(event: 'queue', l: (p: { snapshot: QueueSnapshot }) => void): { dispose(): void };
  on(event: 'probe', l: (p: { probe: Probe }) => void): { dispose(): void };
  on(event: 'idle', l: (p: { idle: boolean }) => void): { dispose(): void };
  on(event: 'fatal', l: (p: { phase: string; message: string }) => void): { dispose(): void };
  on(event: 'exit', l: (p: { code: number | null; signal: string | null }) => void): { dispose(): void };
  readonly controller?: ControllerShape | undefined;
  /** Every controller of the session (a Go manager runs several in one process). */
  readonly controllers?: ControllerShape[];
}

export type ControllerState = 'starting' | 'syncing' | 'running' | 'reconciling' | 'paused' | 'idle' | 'failed' | 'exited';

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

export interface ControllerEntry {
  id: string;
  /** The controllers' names (a Go manager's several controllers: "configs, secrets"). */
  name: string;
  controllers: string[];
  file?: string;
  state: ControllerState;
  paused: boolean;
  idle: boolean;
  synced: boolean;
  reconciles: number;
  errors: number;
  inFlight: Map<string, ReconcileRecord>;
  informers: Map<string, InformerStats>;
  queue: QueueSnapshot;
  exit?: string;
  failed?: boolean;
  startedAt: number;
}

export type ControllerTreeNode =
  | { kind: 'controllers'; id: string }
  | { kind: 'controller'; id: string; sessionId: string }
  /** Ended sessions, folded into one row so the live ones stay on top and nothing reads "processing". */
  | { kind: 'controllersFinished'; id: string }
  | { kind: 'controllerInformers'; id: string; sessionId: string }
  | { kind: 'controllerInformer'; id: string; sessionId: string; informer: string }
  | { kind: 'controllerQueue'; id: string; sessionId: string }
  | { kind: 'controllerQueueKey'; id: string; sessionId: string; key: string }
  | { kind: 'controllerMessage'; id: string; parentId: string; label: string };

export const CONTROLLER_NODE_KINDS: readonly ControllerTreeNode['kind'][] = [
  'controllers',
  'controller',
  'controllersFinished',
  'controllerInformers',
  'controllerInformer',
  'controllerQueue',
  'controllerQueueKey',
  'controllerMessage',
];

export const controllerNodeIds = {
  root: 'controllers',
  finished: 'controllers:finished',
  controller: (sessionId: string) => `ctl:${sessionId}`,
  informers: (sessionId: string) => `ctl:${sessionId}:informers`,
  informer: (sessionId: string, name: string) => `ctl:${sessionId}:informer:${name}`,
  queue: (sessionId: string) => `ctl:${sessionId}:queue`,
  queueKey: (sessionId: string, key: string) => `ctl:${sessionId}:queue:${key}`,
};

/** The same shape as the cluster tree's ItemSpec (kept structural so this file needs no tree import). */
export interface ControllerItemSpec {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon?: { id: string; color?: string };
  contextValue: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
}

/** Keys listed under Workqueue (a queue of 10,000 keys is summarised by its counts). */
export const MAX_QUEUE_ROWS = 500;

/** Ended sessions stay listed under "Finished" so a crash can be read; this many at most. */
const KEEP_ENDED = 3;

const EMPTY_QUEUE: QueueSnapshot = { at: 0, depth: 0, processing: 0, waiting: 0, keys: [] };

function hasEnded(e: ControllerEntry): boolean {
  return e.state === 'exited' || e.state === 'failed';
}

export type ControllerChange =
  | { kind: 'sessions' }
  | { kind: 'controller'; sessionId: string }
  | { kind: 'informers'; sessionId: string }
  | { kind: 'queue'; sessionId: string }
  | { kind: 'span'; span: ReconcileSpan };

export class ControllerSessionsModel {
  readonly entries = new Map<string, ControllerEntry>();
  private readonly nodes = new Map<string, ControllerTreeNode>();
  private readonly listeners = new Set<(change: ControllerChange) => void>();
  private readonly now: () => number;
  private nextId = 1;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  onDidChange(listener: (change: ControllerChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private fire(change: ControllerChange): void {
    for (const l of this.listeners) l(change);
  }

  get hasSessions(): boolean {
    return this.entries.size > 0;
  }

  /** Follows one session until it exits; returns its id. */
  track(session: SessionLike, file?: string): string {
    const id = `s${this.nextId++}`;
    const entry: ControllerEntry = {
      id,
      name: session.controller?.name ?? (file ? baseName(file) : `controller ${id}`),
      controllers: (session.controllers ?? (session.controller ? [session.controller] : [])).map((c) => c.name),
      file,
      state: session.controller ? 'syncing' : 'starting',
      paused: false,
      idle: false,
      synced: false,
      reconciles: 0,
      errors: 0,
      inFlight: new Map(),
      informers: new Map(),
      queue: EMPTY_QUEUE,
      startedAt: this.now(),
    };
    this.entries.set(id, entry);
    const changed = () => this.fire({ kind: 'controller', sessionId: id });
    session.on('ready', ({ controller }) => {
      if (!entry.controllers.includes(controller.name)) entry.controllers.push(controller.name);
      entry.name = entry.controllers.join(', ');
      entry.state = 'syncing';
      changed();
    });
    session.on('synced', () => {
      entry.synced = true;
      changed();
    });
    session.on('idle', ({ idle }) => {
      entry.idle = idle;
      changed();
    });
    session.on('reconcileStart', ({ record }) => {
      entry.inFlight.set(record.reconcileId, record);
      changed();
      this.fire({ kind: 'span', span: reconcileSpan(record) });
    });
    session.on('reconcileEnd', ({ record }) => {
      entry.inFlight.delete(record.reconcileId);
      entry.reconciles++;
      if (record.outcome?.kind === 'error') entry.errors++;
      changed();
      this.fire({ kind: 'span', span: reconcileSpan(record) });
    });
    session.on('queue', ({ snapshot }) => {
      // A last snapshot can arrive after the exit: an ended controller processes nothing.
      if (hasEnded(entry)) return;
      const keysChanged = snapshot.keys.length !== entry.queue.keys.length || snapshot.keys.some((k, i) => k.key !== entry.queue.keys[i]?.key);
      entry.queue = snapshot;
      this.fire({ kind: 'queue', sessionId: id });
      if (keysChanged) changed();
    });
    session.on('probe', ({ probe }) => {
      const added = !entry.informers.has(probe.informer);
      applyProbe(entry.informers, probe);
      this.fire(added ? { kind: 'controller', sessionId: id } : { kind: 'informers', sessionId: id });
    });
    session.on('fatal', ({ phase, message }) => {
      entry.exit = `${phase}: ${message}`;
      entry.failed = true;
      changed();
    });
    session.on('exit', ({ code, signal }) => {
      entry.exit ??= signal ? `signal ${signal}` : `code ${code ?? '?'}`;
      if (code !== 0 && code !== null) entry.failed = true;
      entry.inFlight.clear();
      entry.queue = { ...EMPTY_QUEUE, at: this.now() };
      entry.paused = false;
      this.ended(entry);
    });
    this.fire({ kind: 'sessions' });
    return id;
  }

  /** The debugger stopped on (or continued from) a reconcile of this session. */
  setPaused(sessionId: string, paused: boolean): void {
    const entry = this.entries.get(sessionId);
    if (!entry || entry.paused === paused) return;
    entry.paused = paused;
    this.fire({ kind: 'controller', sessionId });
  }

  private ended(entry: ControllerEntry): void {
    entry.state = entry.failed ? 'failed' : 'exited';
    const ended = [...this.entries.values()].filter(hasEnded);
    for (const old of ended.slice(0, Math.max(0, ended.length - KEEP_ENDED))) this.forget(old.id);
    this.fire({ kind: 'sessions' });
  }

  private forget(sessionId: string): void {
    this.entries.delete(sessionId);
    for (const id of [...this.nodes.keys()]) if (id === controllerNodeIds.controller(sessionId) || id.startsWith(`${controllerNodeIds.controller(sessionId)}:`)) this.nodes.delete(id);
  }

  /** One instance per id (VS Code matches refreshes to elements by identity). */
  node<N extends ControllerTreeNode>(node: N): N {
    const existing = this.nodes.get(node.id);
    if (existing && existing.kind === node.kind) return existing as N;
    this.nodes.set(node.id, node);
    return node;
  }

  lookup(id: string): ControllerTreeNode | undefined {
    return this.nodes.get(id);
  }

  root(): ControllerTreeNode | undefined {
    return this.hasSessions ? this.node({ kind: 'controllers', id: controllerNodeIds.root }) : undefined;
  }

  children(node: ControllerTreeNode): ControllerTreeNode[] {
    switch (node.kind) {
      case 'controllers': {
        const live = [...this.entries.values()].filter((e) => !hasEnded(e));
        const rows: ControllerTreeNode[] = live.map((e) => this.node({ kind: 'controller', id: controllerNodeIds.controller(e.id), sessionId: e.id }));
        if (live.length < this.entries.size) rows.push(this.node({ kind: 'controllersFinished', id: controllerNodeIds.finished }));
        return rows;
      }
      case 'controllersFinished':
        return [...this.entries.values()].filter(hasEnded).reverse().map((e) => this.node({ kind: 'controller', id: controllerNodeIds.controller(e.id), sessionId: e.id }));
      case 'controller': {
        const entry = this.entries.get(node.sessionId);
        // An ended controller has no live informers or queue: its row says how it ended.
        if (!entry || hasEnded(entry)) return [];
        return [
          this.node({ kind: 'controllerInformers', id: controllerNodeIds.informers(node.sessionId), sessionId: node.sessionId }),
          this.node({ kind: 'controllerQueue', id: controllerNodeIds.queue(node.sessionId), sessionId: node.sessionId }),
        ];
      }
      case 'controllerInformers': {
        const entry = this.entries.get(node.sessionId);
        if (!entry) return [];
        if (entry.informers.size === 0) return [this.node({ kind: 'controllerMessage', id: `${node.id}:none`, parentId: node.id, label: 'No informer activity yet' })];
        return [...entry.informers.keys()].map((informer) =>
          this.node({ kind: 'controllerInformer', id: controllerNodeIds.informer(node.sessionId, informer), sessionId: node.sessionId, informer }),
        );
      }
      case 'controllerQueue': {
        const entry = this.entries.get(node.sessionId);
        if (!entry) return [];
        if (entry.queue.keys.length === 0) return [this.node({ kind: 'controllerMessage', id: `${node.id}:empty`, parentId: node.id, label: 'Empty' })];
        const shown = entry.queue.keys.slice(0, MAX_QUEUE_ROWS);
        const rows: ControllerTreeNode[] = shown.map((k) => this.node({ kind: 'controllerQueueKey', id: controllerNodeIds.queueKey(node.sessionId, k.key), sessionId: node.sessionId, key: k.key }));
        const hidden = entry.queue.keys.length - shown.length;
        if (hidden > 0) {
          // Its label changes with the count: a fresh node each time (nothing refreshes it by identity).
          const more: ControllerTreeNode = { kind: 'controllerMessage', id: `${node.id}:more`, parentId: node.id, label: `… ${count(hidden, 'more key')}` };
          this.nodes.set(more.id, more);
          rows.push(more);
        }
        return rows;
      }
      default:
        return [];
    }
  }

  parent(node: ControllerTreeNode): ControllerTreeNode | undefined {
    switch (node.kind) {
      case 'controllers': return undefined;
      case 'controller': {
        const entry = this.entries.get(node.sessionId);
        return this.lookup(entry && hasEnded(entry) ? controllerNodeIds.finished : controllerNodeIds.root);
      }
      case 'controllersFinished': return this.lookup(controllerNodeIds.root);
      case 'controllerInformers':
      case 'controllerQueue': return this.lookup(controllerNodeIds.controller(node.sessionId));
      case 'controllerInformer': return this.lookup(controllerNodeIds.informers(node.sessionId));
      case 'controllerQueueKey': return this.lookup(controllerNodeIds.queue(node.sessionId));
      case 'controllerMessage': return this.lookup(node.parentId);
    }
  }

  item(node: ControllerTreeNode): ControllerItemSpec {
    switch (node.kind) {
      case 'controllers': {
        const running = [...this.entries.values()].filter((e) => !hasEnded(e)).length;
        const finished = this.entries.size - running;
        return {
          id: node.id,
          label: 'Controllers',
          description: [count(running, 'running', 'running'), finished ? `${finished} finished` : ''].filter(Boolean).join(' · '),
          tooltip: 'Controllers you run or debug (“Run Controller…”, F5): their informers and workqueue, live.',
          icon: { id: 'gear' },
          contextValue: 'controllers',
          collapsible: 'expanded',
        };
      }
      case 'controller': return this.controllerItem(node.id, node.sessionId);
      case 'controllersFinished': {
        const ended = [...this.entries.values()].filter(hasEnded);
        const failed = ended.filter((e) => e.state === 'failed').length;
        return {
          id: node.id,
          label: 'Finished',
          description: [count(ended.length, 'session'), failed ? `${failed} failed` : ''].filter(Boolean).join(' · '),
          tooltip: `The last ${KEEP_ENDED} controller sessions that ended, with how they ended.`,
          icon: { id: 'history' },
          contextValue: 'controllersFinished',
          collapsible: 'collapsed',
        };
      }
      case 'controllerInformers': {
        const entry = this.entries.get(node.sessionId);
        const informers = [...(entry?.informers.values() ?? [])];
        const synced = informers.filter((i) => i.synced).length;
        return {
          id: node.id,
          label: 'Informers',
          description: `${synced}/${informers.length} synced`,
          icon: { id: 'eye' },
          contextValue: 'controllerInformers',
          collapsible: 'collapsed',
        };
      }
      case 'controllerInformer': {
        const i = this.entries.get(node.sessionId)?.informers.get(node.informer);
        if (!i) return { id: node.id, label: node.informer, description: 'gone', contextValue: 'controllerInformer', collapsible: 'none' };
        return {
          id: node.id,
          label: i.name,
          description: informerDescription(i),
          tooltip: informerTooltip(i),
          icon: i.synced ? { id: 'pass-filled', color: 'charts.green' } : i.lastError ? { id: 'warning', color: 'charts.yellow' } : { id: 'sync~spin', color: 'charts.blue' },
          contextValue: 'controllerInformer',
          collapsible: 'none',
        };
      }
      case 'controllerQueue': {
        const q = this.entries.get(node.sessionId)?.queue;
        return {
          id: node.id,
          label: 'Workqueue',
          description: q ? queueDescription(q) : '',
          icon: { id: 'list-ordered' },
          contextValue: 'controllerQueue',
          collapsible: 'collapsed',
        };
      }
      case 'controllerQueueKey': {
        const k = this.entries.get(node.sessionId)?.queue.keys.find((x) => x.key === node.key);
        if (!k) return { id: node.id, label: node.key, description: 'done', contextValue: 'controllerQueueKey', collapsible: 'none' };
        return {
          id: node.id,
          label: k.key,
          description: queueKeyDescription(k, this.now()),
          icon: QUEUE_ICONS[k.state],
          contextValue: `controllerQueueKey.${k.state}`,
          collapsible: 'none',
        };
      }
      case 'controllerMessage':
        return { id: node.id, label: node.label, icon: { id: 'info' }, contextValue: 'controllerMessage', collapsible: 'none' };
    }
  }

  private controllerItem(id: string, sessionId: string): ControllerItemSpec {
    const e = this.entries.get(sessionId);
    if (!e) return { id, label: sessionId, contextValue: 'controller', collapsible: 'none' };
    const state = stateOf(e);
    const ended = hasEnded(e);
    const parts = [ended && e.exit ? `${STATE_WORDS[state]} (${e.exit})` : STATE_WORDS[state], count(e.reconciles, 'reconcile')];
    if (e.errors) parts.push(count(e.errors, 'error'));
    if (!ended && e.queue.depth + e.queue.waiting > 0) parts.push(`queue ${e.queue.depth + e.queue.waiting}`);
    const tooltip = [
      `**${escapeMarkdown(e.name)}** — ${STATE_WORDS[state]}`,
      '',
      ...(e.file ? [`file: ${escapeMarkdown(e.file)}`, ''] : []),
      `reconciles: ${e.reconciles}, errors: ${e.errors}, in flight: ${e.inFlight.size}`,
      ...(e.exit ? ['', escapeMarkdown(e.exit)] : []),
    ].join('\n');
    return {
      id,
      label: e.name,
      description: parts.join(' · '),
      tooltip,
      icon: STATE_ICONS[state],
      contextValue: `controller.${state}`,
      collapsible: ended ? 'none' : 'expanded',
    };
  }
}

export function stateOf(e: ControllerEntry): ControllerState {
  if (e.state === 'exited' || e.state === 'failed') return e.state;
  if (e.paused) return 'paused';
  if (!e.synced) return e.state === 'starting' ? 'starting' : 'syncing';
  if (e.inFlight.size > 0) return 'reconciling';
  return e.idle ? 'idle' : 'running';
}

const STATE_WORDS: Record<ControllerState, string> = {
  starting: 'starting…',
  syncing: 'syncing',
  running: 'running',
  reconciling: 'reconciling',
  paused: 'stopped in debugger',
  idle: 'idle',
  failed: 'failed',
  exited: 'exited',
};

const STATE_ICONS: Record<ControllerState, { id: string; color?: string }> = {
  starting: { id: 'loading~spin' },
  syncing: { id: 'sync~spin', color: 'charts.blue' },
  running: { id: 'play-circle', color: 'charts.green' },
  reconciling: { id: 'gear~spin', color: 'charts.green' },
  paused: { id: 'debug-pause', color: 'charts.yellow' },
  idle: { id: 'circle-large-outline', color: 'charts.green' },
  failed: { id: 'error', color: 'errorForeground' },
  exited: { id: 'debug-stop' },
};

const QUEUE_ICONS: Record<QueueKeySnapshot['state'], { id: string; color?: string }> = {
  queued: { id: 'circle-filled', color: 'charts.blue' },
  processing: { id: 'gear~spin', color: 'charts.green' },
  waiting: { id: 'clock', color: 'charts.yellow' },
};

export function queueDescription(q: QueueSnapshot): string {
  return `depth ${q.depth} · processing ${q.processing} · waiting ${q.waiting}`;
}

export function queueKeyDescription(k: QueueKeySnapshot, now: number): string {
  const parts: string[] = [k.state];
  if (k.retries) parts.push(count(k.retries, 'retry', 'retries'));
  if (k.state === 'waiting') {
    if (k.reason) parts.push(k.reason === 'after' ? 'requeueAfter' : 'backoff');
    if (k.readyAt !== undefined) parts.push(`${formatMs(Math.max(0, k.readyAt - now))} left`);
    else if (k.backoffMs !== undefined) parts.push(formatMs(k.backoffMs));
  }
  if (k.dirty) parts.push('re-added');
  return parts.join(' · ');
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
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

function informerDescription(i: InformerStats): string {
  const parts = [i.synced ? 'synced' : 'syncing', i.lastResourceVersion ? `rv ${i.lastResourceVersion}` : '', count(i.events, 'event')];
  if (i.relists) parts.push(`⟳ ${i.relists}`);
  if (i.expired) parts.push(`410 × ${i.expired}`);
  if (i.errors) parts.push(count(i.errors, 'error'));
  return parts.filter(Boolean).join(' · ');
}

function informerTooltip(i: InformerStats): string {
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

function describeDecision(d: RequeueDecision | undefined): string {
  switch (d?.action) {
    case undefined: return '';
    case 'forget': return 'done';
    case 'forgetTerminal': return 'terminal error, not retried';
    case 'addRateLimited': return d.reason === 'error' ? 'requeued with backoff (error)' : 'requeued with backoff';
    case 'addAfter': return `requeued after ${formatMs(d.delayMs)}`;
  }
}

/** A reconcile record as a timeline span: its trigger events and its writes, with their RVs. */
export function reconcileSpan(record: ReconcileRecord): ReconcileSpan {
  const outcome = record.outcome === undefined ? 'running' : record.outcome.kind === 'error' ? 'error' : 'success';
  const decision = describeDecision(record.decision);
  const detail = record.outcome?.kind === 'error' ? `${record.outcome.error.message}${decision ? ` — ${decision}` : ''}` : decision;
  return {
    id: record.reconcileId,
    seq: record.seq,
    controller: record.controller,
    kind: record.forKind.kind,
    key: record.key,
    startedAt: record.startedAt,
    endedAt: record.durationMs === undefined ? undefined : record.startedAt + record.durationMs,
    outcome,
    detail,
    triggers: record.trigger.map((t) => ({ type: t.type, kind: t.kind, key: t.key, resourceVersion: t.resourceVersion, via: t.via, at: t.at })),
    writes: record.writes.map((w) => ({
      verb: w.verb,
      kind: w.kind,
      namespace: w.namespace ?? '',
      name: w.name,
      resourceVersion: w.resourceVersion,
      error: w.error ? `${w.error.code ?? ''} ${w.error.reason ?? ''} ${w.error.message}`.trim() : undefined,
      at: w.at,
    })),
  };
}

function baseName(file: string): string {
  const name = file.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? file;
  return name.replace(/\.[cm]?[jt]s$/, '');
}

const DELTA_TYPES = { Added: 'ADDED', Replaced: 'ADDED', Updated: 'MODIFIED', Deleted: 'DELETED' } as const;

/**
 * What the controller's own informers see, as timeline events (so a reconcile's triggers and the
 * events its writes caused are on the timeline even when no informer of the lab watches that
 * cluster): every cache delta (lists included) as ADDED/MODIFIED/DELETED, relists and 410s as markers.
 */
export function probeTimelineEvent(controller: string, probe: Probe, shape?: ControllerShape | ControllerShape[]): NewTimelineEvent | undefined {
  const informer = `controller:${controller}/${probe.informer}`;
  const resource = probe.informer.replace(/@.*$/, '');
  // The controller's own cache is a view of its own cluster (often a sim of its debug session):
  // its lanes never merge with the lab's, and say whose they are.
  const cluster = controllerCacheLabel(controller);
  const kind = shape ? kindOfResource(shape, resource) : undefined;
  const base = { at: probe.at, informer, resource, cluster, ...(kind ? { kind } : {}) };
  switch (probe.kind) {
    case 'delta': {
      if (probe.type === 'Sync') return undefined;
      return { ...base, ...splitKey(probe.key), type: DELTA_TYPES[probe.type], resourceVersion: probe.resourceVersion };
    }
    case 'relist': return { ...base, namespace: '', name: '', type: 'RELIST', resourceVersion: '' };
    case 'expired': return { ...base, namespace: '', name: '', type: 'EXPIRED', resourceVersion: probe.resourceVersion };
    default: return undefined;
  }
}

export function controllerCacheLabel(controller: string): string {
  return `${controller} cache`;
}

/** `pods` → `Pod`, `replicasets.apps` → `ReplicaSet`: the kinds the controllers name, matched by their plural. */
export function kindOfResource(shape: ControllerShape | ControllerShape[], resource: string): string | undefined {
  const plural = resource.split('.')[0] ?? resource;
  for (const ref of [shape].flat().flatMap((s) => [s.forKind, ...s.owns, ...s.watches])) {
    const lower = ref.kind.toLowerCase();
    const guesses = [`${lower}s`, `${lower}es`, lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : ''];
    if (guesses.includes(plural)) return ref.kind;
  }
  return undefined;
}
