import * as vscode from 'vscode';
import { GoReconcileDebugSession } from '../go/goReconcileDebugSession.ts';

/** The adapter: inline in the extension host (default), or dist/debugAdapter.cjs as a process (`"debugAdapter": "process"`). */
export class AdapterDescriptorFactory implements vscode.DebugAdapterDescriptorFactory {
  private readonly extensionUri: vscode.Uri;
  constructor(extensionUri: vscode.Uri) {
    this.extensionUri = extensionUri;
  }
  createDebugAdapterDescriptor(session: vscode.DebugSession): vscode.ProviderResult<vscode.DebugAdapterDescriptor> {
    if (session.configuration.debugAdapter === 'process') {
      const adapter = vscode.Uri.joinPath(this.extensionUri, 'dist', 'debugAdapter.cjs').fsPath;
      return new vscode.DebugAdapterExecutable(process.execPath, [adapter], { env: { ELECTRON_RUN_AS_NODE: '1' } });
    }
    // Inline: the controller's runtime events reach the views in this same process.
    return new vscode.DebugAdapterInlineImplementation(new GoReconcileDebugSession() as unknown as vscode.DebugAdapter);
  }
}
