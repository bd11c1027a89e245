import { EMPTY_QUEUE, KEEP_ENDED, hasEnded, type ControllerEntry } from './controllerEntry.ts';
import { applyProbe } from './informerStats.ts';
import type { SessionLike } from './sessionLike.ts';

// The running (and recently ended) controller sessions, as plain data: each one's state, reconcile
// and error counts, informers (from their probes) and workqueue. Pure (no vscode): the runtime's
// events come in through `track`; the tree rows (controllerTreeRows.ts) and the timeline
// (controllerTimeline.ts) read and follow it.

export type ControllerChange =
  | { kind: 'sessions' }
  | { kind: 'controller'; sessionId: string }
  | { kind: 'informers'; sessionId: string }
  | { kind: 'queue'; sessionId: string };

export class ControllerSessionsModel {
  readonly entries = new Map<string, ControllerEntry>();
  private readonly listeners = new Set<(change: ControllerChange) => void>();
  readonly now: () => number;
  private nextId = 1;
  /** The API servers of the clusters the view shows (a controller's row says when its own is not one). */
  viewServers: () => string[] = () => [];

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
    });
    session.on('reconcileEnd', ({ record }) => {
      entry.inFlight.delete(record.reconcileId);
      entry.reconciles++;
      if (record.outcome?.kind === 'error') entry.errors++;
      changed();
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

  /** The newest session that has not ended (the one a debugger's stops are about). */
  liveSession(): string | undefined {
    return [...this.entries.values()].reverse().find((e) => !hasEnded(e))?.id;
  }

  private ended(entry: ControllerEntry): void {
    entry.state = entry.failed ? 'failed' : 'exited';
    const ended = [...this.entries.values()].filter(hasEnded);
    for (const old of ended.slice(0, Math.max(0, ended.length - KEEP_ENDED))) this.entries.delete(old.id);
    this.fire({ kind: 'sessions' });
  }
}

function baseName(file: string): string {
  const name = file.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? file;
  return name.replace(/\.[cm]?[jt]s$/, '');
}
