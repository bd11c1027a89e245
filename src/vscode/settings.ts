import * as vscode from 'vscode';

// The extension's settings (package.json contributes.configuration), read in one place.

export type SettingKey = 'cluster' | 'kubeconfig' | 'defaultInformers' | 'showSecretValues' | 'timeline.maxEvents' | 'sim.sampleObjects' | 'sim.keepState' | 'informer.keepManagedFields' | 'informer.maxObjects';

export class Settings implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<SettingKey>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      for (const key of ['cluster', 'kubeconfig', 'defaultInformers', 'showSecretValues', 'timeline.maxEvents', 'sim.sampleObjects', 'sim.keepState', 'informer.keepManagedFields', 'informer.maxObjects'] as const) {
        if (e.affectsConfiguration(`controllerLab.${key}`)) this.emitter.fire(key);
      }
    });
  }

  private get config(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration('controllerLab');
  }

  /** 'sim' or a kubeconfig context name. */
  get cluster(): string {
    return this.config.get<string>('cluster', 'sim').trim() || 'sim';
  }

  get kubeconfig(): string | undefined {
    const path = this.config.get<string>('kubeconfig', '').trim();
    return path || undefined;
  }

  get defaultInformers(): string[] {
    return this.config.get<string[]>('defaultInformers', ['configmaps', 'deployments.apps']).filter((s) => typeof s === 'string' && s.trim());
  }

  get showSecretValues(): boolean {
    return this.config.get<boolean>('showSecretValues', false);
  }

  get maxTimelineEvents(): number {
    const n = this.config.get<number>('timeline.maxEvents', 100_000);
    return Math.min(1_000_000, Math.max(1000, Math.floor(Number.isFinite(n) ? n : 100_000)));
  }

  get simSampleObjects(): boolean {
    return this.config.get<boolean>('sim.sampleObjects', true);
  }

  get simKeepState(): boolean {
    return this.config.get<boolean>('sim.keepState', true);
  }

  get keepManagedFields(): boolean {
    return this.config.get<boolean>('informer.keepManagedFields', false);
  }

  /** 0 = no limit. */
  get maxInformerObjects(): number {
    const n = this.config.get<number>('informer.maxObjects', 200_000);
    return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
