import * as vscode from 'vscode';
import { Disposable } from './disposable.ts';
import type { Lab } from './model/lab.ts';
import { statusText } from './statusText.ts';

// The status bar item (its text: statusText.ts). Clicking opens the timeline.

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
