import * as vscode from 'vscode';

// The extension's settings (package.json contributes.configuration), read in one place. settings.json
// takes any JSON whatever the schema says (VS Code only underlines it): a value of the wrong type is
// ignored for the default and said once, rather than failing deep inside (`… .trim is not a function`)
// or taking the string "false" as true.

export type SettingKey = 'cluster' | 'kubeconfig' | 'defaultInformers' | 'showSecretValues' | 'timeline.maxEvents' | 'sim.sampleObjects' | 'sim.keepState' | 'informer.keepManagedFields' | 'informer.maxObjects';

export class Settings implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<SettingKey>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  private readonly reported = new Set<string>();

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

  /** The setting's value when it has the type `expected` names; else `fallback`, said once per value. */
  private read<T>(key: SettingKey, fallback: T, expected: string, valid: (value: unknown) => boolean): T {
    const value: unknown = this.config.get(key, fallback);
    if (valid(value)) return value as T;
    const shown = JSON.stringify(value);
    if (!this.reported.has(`${key}=${shown}`)) {
      this.reported.add(`${key}=${shown}`);
      void vscode.window.showWarningMessage(`Controller Lab: controllerLab.${key} should be ${expected}; ${shown} is ignored, using ${JSON.stringify(fallback)}.`);
    }
    return fallback;
  }

  /** 'sim' or a kubeconfig context name. */
  get cluster(): string {
    return this.read('cluster', 'sim', 'a string', isString).trim() || 'sim';
  }

  get kubeconfig(): string | undefined {
    const path = this.read('kubeconfig', '', 'a string', isString).trim();
    return path || undefined;
  }

  get defaultInformers(): string[] {
    const names = this.read<unknown[]>('defaultInformers', ['configmaps', 'deployments.apps'], 'a list of resource names', Array.isArray);
    return names.filter((s): s is string => isString(s) && s.trim() !== '');
  }

  get showSecretValues(): boolean {
    return this.read('showSecretValues', false, 'true or false', isBoolean);
  }

  get maxTimelineEvents(): number {
    const n = this.read('timeline.maxEvents', 100_000, 'a number', isNumber);
    return Math.min(1_000_000, Math.max(1000, Math.floor(n)));
  }

  get simSampleObjects(): boolean {
    return this.read('sim.sampleObjects', true, 'true or false', isBoolean);
  }

  get simKeepState(): boolean {
    return this.read('sim.keepState', true, 'true or false', isBoolean);
  }

  get keepManagedFields(): boolean {
    return this.read('informer.keepManagedFields', false, 'true or false', isBoolean);
  }

  /** 0 = no limit. */
  get maxInformerObjects(): number {
    const n = this.read('informer.maxObjects', 200_000, 'a number', isNumber);
    return n > 0 ? Math.floor(n) : 0;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
