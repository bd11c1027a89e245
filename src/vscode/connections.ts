import { rm } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ApiResource } from '../shared/k8s.ts';
import type { Log } from './guard.ts';
import type { ClusterSession } from './model/clusterSession.ts';
import type { InformerSpec, InformerSession } from './model/informerSession.ts';
import { informerName } from './model/informerSession.ts';
import type { ConnectTarget, Lab } from './model/lab.ts';
import { clusterIdOf } from './model/lab.ts';
import type { Settings } from './settings.ts';

// Connecting to clusters and starting informers, with progress notifications while connecting and
// while the first list runs, and a notification naming the cause when something fails. The rest of
// the lab keeps working: a failed cluster or informer is one error row in the tree.

const SYNC_PROGRESS_TIMEOUT_MS = 30_000;

export function targetFromSettings(settings: Settings): { target: ConnectTarget; label: string } {
  const cluster = settings.cluster;
  if (cluster === 'sim') return { target: { kind: 'sim' }, label: 'Simulated cluster' };
  return { target: { kind: 'kubeconfig', context: cluster, ...(settings.kubeconfig ? { kubeconfig: settings.kubeconfig } : {}) }, label: cluster };
}

export class Connections {
  private readonly lab: Lab;
  private readonly settings: Settings;
  private readonly log: Log;
  private readonly connecting = new Map<string, Promise<ClusterSession>>();
  /** Where the view's simulated cluster keeps its state ("Reset Simulated Cluster" empties it). */
  simStateDir: string | undefined;

  constructor(lab: Lab, settings: Settings, log: Log) {
    this.lab = lab;
    this.settings = settings;
    this.log = log;
  }

  ensureConnected(): Promise<ClusterSession> {
    const { target, label } = targetFromSettings(this.settings);
    return this.connect(target, label);
  }

  /**
   * After controllerLab.cluster or .kubeconfig changed: the rows of connections that failed go
   * (they say what was wrong with the settings before), then the new settings connect.
   */
  async reconnectFromSettings(): Promise<ClusterSession> {
    for (const [id, session] of this.lab.clusters) if (session.phase === 'failed') await this.lab.disconnect(id);
    return this.ensureConnected();
  }

  ensureSim(): Promise<ClusterSession> {
    return this.connect({ kind: 'sim' }, 'Simulated cluster');
  }

  /** Stops the simulated cluster, forgets its kept state, and starts a new one. */
  async resetSim(): Promise<ClusterSession> {
    await this.lab.disconnect(clusterIdOf({ kind: 'sim' }));
    if (this.simStateDir) await rm(this.simStateDir, { recursive: true, force: true });
    this.log.info('simulated cluster reset: its kept state was removed');
    return this.ensureSim();
  }

  /** Connects once per target (concurrent callers share the attempt), then starts the default informers. */
  connect(target: ConnectTarget, label: string): Promise<ClusterSession> {
    const id = clusterIdOf(target);
    const existing = this.lab.clusters.get(id);
    if (existing?.phase === 'connected') return Promise.resolve(existing);
    let attempt = this.connecting.get(id);
    if (!attempt) {
      attempt = this.doConnect(target, label).finally(() => this.connecting.delete(id));
      this.connecting.set(id, attempt);
    }
    return attempt;
  }

  private async doConnect(target: ConnectTarget, label: string): Promise<ClusterSession> {
    const session = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Controller Lab: ${target.kind === 'sim' ? 'starting the simulated cluster' : `connecting to ${label}`}…` },
      () => this.lab.connect(target, label),
    );
    this.log.info(`connected to ${label} (${session.server ?? ''})`);
    const origin = session.backend?.origin;
    if (origin?.kind === 'restored') {
      this.log.info(`simulated cluster restored from ${origin.stateDir}: ${origin.objects} objects`);
      vscode.window.setStatusBarMessage(`$(beaker) Simulated cluster restored: ${origin.objects} objects from the last session`, 8000);
    } else if (origin?.kind === 'new' && target.kind === 'sim') {
      vscode.window.setStatusBarMessage(`$(beaker) New simulated cluster${origin.stateDir ? ' (kept across reloads)' : ''}`, 8000);
    }
    await this.startDefaultInformers(session);
    return session;
  }

  private async startDefaultInformers(session: ClusterSession): Promise<void> {
    const names = this.settings.defaultInformers;
    if (names.length === 0) return;
    const started: InformerSession[] = [];
    for (const name of names) {
      try {
        const resource = await session.backend!.cluster.resolve(name);
        started.push(this.lab.startInformer(session.id, { resource, namespace: '', labelSelector: '' }));
      } catch (err) {
        const failure = this.lab.recordInformerFailure(session.id, name, err);
        this.log.warn(`default informer ${name}: ${failure.message}`);
        void vscode.window.showWarningMessage(`Controller Lab: cannot watch ${name} on ${session.label} — ${failure.message}`);
      }
    }
    await this.syncProgress(started);
  }

  /** Starts an informer and reports its first list with a progress notification. */
  async startInformer(session: ClusterSession, spec: InformerSpec): Promise<InformerSession> {
    let informer: InformerSession;
    try {
      informer = this.lab.startInformer(session.id, spec);
    } catch (err) {
      this.lab.recordInformerFailure(session.id, informerName(spec), err);
      throw err;
    }
    await this.syncProgress([informer]);
    return informer;
  }

  async resolve(session: ClusterSession, name: string): Promise<ApiResource> {
    try {
      return await session.backend!.cluster.resolve(name);
    } catch (err) {
      this.lab.recordInformerFailure(session.id, name, err);
      throw err;
    }
  }

  private async syncProgress(informers: InformerSession[]): Promise<void> {
    if (informers.length === 0) return;
    const title = `Controller Lab: listing ${informers.map((i) => i.name).join(', ')}…`;
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, async () => {
      const outcomes = await Promise.all(informers.map((i) => firstListOutcome(i, SYNC_PROGRESS_TIMEOUT_MS)));
      outcomes.forEach((outcome, index) => {
        const informer = informers[index]!;
        if (outcome === 'failing') {
          void vscode.window.showWarningMessage(`Controller Lab: ${informer.name} cannot list — ${informer.lastError ?? 'unknown error'}. It keeps retrying.`);
        } else if (outcome === 'timeout') {
          void vscode.window.showWarningMessage(`Controller Lab: ${informer.name} has not synced after ${SYNC_PROGRESS_TIMEOUT_MS / 1000}s. It keeps trying.`);
        }
      });
    });
  }
}

/** Resolves when the informer synced, started failing (backing off), stopped, or the time ran out. */
export function firstListOutcome(informer: InformerSession, timeoutMs: number): Promise<'synced' | 'failing' | 'stopped' | 'timeout'> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      if (informer.informer.hasSynced()) return done('synced');
      if (informer.phase === 'retrying') return done('failing');
      if (informer.phase === 'stopped') return done('stopped');
      return false;
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    const unsubscribe = informer.onDidChange(() => check());
    const done = (outcome: 'synced' | 'failing' | 'stopped' | 'timeout'): true => {
      clearTimeout(timer);
      unsubscribe();
      resolve(outcome);
      return true;
    };
    void informer.informer.waitForSync().then(() => check());
    check();
  });
}
