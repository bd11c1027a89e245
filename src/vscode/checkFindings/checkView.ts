import * as vscode from 'vscode';
import { registerGuarded, type Log } from '../guard.ts';
import { checkControllerCommand, stopCheckCommand } from './checkCommand.ts';
import { replayLaunchConfiguration, type CheckTarget } from './checkTarget.ts';
import { FindingsModel, type FindingsNode } from './findingsModel.ts';
import { FindingsTreeProvider } from './findingsTreeProvider.ts';

// Check Controller and its view: the command, the Check Findings tree (its message says where the
// check stands), Replay in Debugger and Copy Replay Command on a finding.

export const FINDINGS_VIEW = 'controllerLab.checkFindings';

export interface CheckView extends vscode.Disposable {
  readonly provider: FindingsTreeProvider;
}

export function registerCheckView(log: Log): CheckView {
  const model = new FindingsModel();
  const provider = new FindingsTreeProvider(model);
  const view = vscode.window.createTreeView<FindingsNode>(FINDINGS_VIEW, { treeDataProvider: provider, showCollapseAll: true });
  const unsubscribe = model.onDidChange(() => {
    view.message = model.message();
    void vscode.commands.executeCommand('setContext', 'controllerLab.hasFindings', model.roots().length > 0);
    void vscode.commands.executeCommand('setContext', 'controllerLab.checkRunning', model.running);
  });
  const reveal = () => void vscode.commands.executeCommand(`${FINDINGS_VIEW}.focus`);

  /** The row a command was run on, or one picked from the findings (the palette). */
  const findingFor = async (row: FindingsNode | undefined): Promise<FindingsNode | undefined> => {
    if (row) return row;
    const findings = model.roots();
    if (findings.length <= 1) return findings[0];
    const picked = await vscode.window.showQuickPick(
      findings.map((f) => ({ label: f.item.label, description: f.ref.finding.class, node: f })),
      { title: 'Replay which finding?', matchOnDescription: true },
    );
    return picked?.node;
  };

  const disposables = [
    provider,
    view,
    registerGuarded(log, 'controllerLab.checkController', (arg?: vscode.Uri | Partial<CheckTarget>) => checkControllerCommand(model, log, arg, reveal), 'Check controller'),
    registerGuarded(log, 'controllerLab.stopCheck', () => stopCheckCommand(), 'Stop check'),
    registerGuarded(log, 'controllerLab.replayFinding', async (row?: FindingsNode) => {
      const node = await findingFor(row);
      if (!node) {
        void vscode.window.showInformationMessage('Controller Lab: no finding to replay — run Check Controller first.');
        return false;
      }
      const { target, finding, n } = node.ref;
      const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(target.program));
      return vscode.debug.startDebugging(folder, replayLaunchConfiguration(target, finding.plan, `Replay finding ${n}: ${finding.perturbation}`) as vscode.DebugConfiguration);
    }, 'Replay in debugger'),
    registerGuarded(log, 'controllerLab.copyReplayCommand', async (row?: FindingsNode) => {
      const node = await findingFor(row);
      if (!node) return undefined;
      await vscode.env.clipboard.writeText(node.ref.finding.replay);
      vscode.window.setStatusBarMessage('Copied the replay command', 2000);
      return node.ref.finding.replay;
    }, 'Copy replay command'),
  ];
  return {
    provider,
    dispose() {
      unsubscribe();
      for (const d of disposables.reverse()) d.dispose();
    },
  };
}
