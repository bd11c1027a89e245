import * as vscode from 'vscode';
import { Disposable } from './disposable.ts';
import type { Lab } from './model/lab.ts';

// The status bar item: which cluster, how many informers are synced, events per second. Clicking
// opens the timeline.

export function statusText(lab: Lab): { text: string; tooltip: string; warning: boolean } {
  const clusters = [...lab.clusters.values()];
  if (clusters.length === 0) return { text: '$(beaker) Controller Lab', tooltip: 'Controller Lab: not connected — open the Controller Lab view', warning: false };
  const informers = [...lab.informers()];
  const synced = informers.filter((i) => i.phase === 'synced').length;
  const failing = clusters.some((c) => c.phase === 'failed') || informers.some((i) => i.phase === 'retrying');
  const name = clusters.length === 1 ? clusters[0]!.label : `${clusters.length} clusters`;
  const rate = lab.eventRate.perSecond();
  const rateText = rate >= 10 ? rate.toFixed(0) : rate.toFixed(1);
  const icon = failing ? '$(warning)' : clusters[0]!.kind === 'sim' ? '$(beaker)' : '$(server-environment)';
  return {
    text: `${icon} ${name} · ${synced}/${informers.length} synced · ${rateText} ev/s`,
    tooltip: `Controller Lab — ${name}\n${synced} of ${informers.length} informers synced\n${rateText} watch events per second\nClick to open the timeline`,
    warning: failing,
  };
}

export class LabStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly lab: Lab;
  private scheduled = false;

  constructor(lab: Lab) {
    super();
    this.lab = lab;
    this.item = this._register(vscode.window.createStatusBarItem('controllerLab.status', vscode.StatusBarAlignment.Left, 20));
    this.item.name = 'Controller Lab';
    this.item.command = 'controllerLab.showTimeline';
    this._registerFn(lab.onDidChange(() => this.schedule()));
    const timer = setInterval(() => this.update(), 1000);
    this._registerFn(() => clearInterval(timer));
    this.update();
    this.item.show();
  }

  get text(): string {
    return this.item.text;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.update();
    }, 250);
  }

  private update(): void {
    if (this.isDisposed) return;
    const { text, tooltip, warning } = statusText(this.lab);
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.backgroundColor = warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }
}
