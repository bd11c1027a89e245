import type * as vscode from 'vscode';
import type { ClusterSession } from './model/clusterSession.ts';
import type { Lab } from './model/lab.ts';
import type { Settings } from './settings.ts';
import type { ClusterTreeProvider } from './tree/clusterTreeProvider.ts';
import type { TreeNode } from './tree/treeNodes.ts';

// What the views share with each other and with the debugger glue (activateDebug).
export interface LabServices {
  readonly lab: Lab;
  readonly settings: Settings;
  readonly log: vscode.LogOutputChannel;
  readonly tree: ClusterTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  readonly extensionUri: vscode.Uri;
  /** The configured cluster, connecting (and starting default informers) on first use. */
  ensureConnected(): Promise<ClusterSession>;
  /** The simulated cluster, started if needed. */
  ensureSim(): Promise<ClusterSession>;
}
