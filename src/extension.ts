import * as vscode from 'vscode';

// Activation builds the services and registers every contribution; each disposable goes into the
// extension context so deactivation releases it.
export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('Controller Lab', { log: true });
  context.subscriptions.push(output);
  output.info('Controller Lab activated');
}

export function deactivate(): void {}
