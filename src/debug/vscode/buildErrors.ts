import * as vscode from 'vscode';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { buildErrorLocations, type BuildErrorLocation } from '../buildErrorLocations.ts';

// A controller that does not build: its errors in the Problems view and a notification that goes
// to the first one (VS Code's own launch-error dialog offers only launch.json). The problems stay
// until the next session of ours starts, which builds again.

const GO_TO_ERROR = 'Go to Error';
const SHOW_PROBLEMS = 'Show Problems';

export function reportBuildErrors(debugType: string): vscode.Disposable {
  const problems = vscode.languages.createDiagnosticCollection('Controller Lab build');
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory(debugType, {
    createDebugAdapterTracker() {
      problems.clear();
      return {
        onDidSendMessage(message: DebugProtocol.ProtocolMessage) {
          if (message.type !== 'response') return;
          const response = message as DebugProtocol.Response;
          if (response.command !== 'launch' || response.success) return;
          const text = (response.body as { error?: DebugProtocol.Message } | undefined)?.error?.format ?? response.message ?? '';
          const located = buildErrorLocations(text);
          if (located.length > 0) void show(problems, text, located);
        },
      };
    },
  });
  return vscode.Disposable.from(tracker, problems);
}

async function show(problems: vscode.DiagnosticCollection, text: string, located: BuildErrorLocation[]): Promise<void> {
  const byFile = new Map<string, vscode.Diagnostic[]>();
  for (const e of located) {
    const at = new vscode.Position(e.line - 1, e.column - 1);
    const diagnostic = new vscode.Diagnostic(new vscode.Range(at, at.translate(0, 1)), e.message, vscode.DiagnosticSeverity.Error);
    diagnostic.source = 'Controller Lab build';
    byFile.set(e.file, [...(byFile.get(e.file) ?? []), diagnostic]);
  }
  for (const [file, list] of byFile) problems.set(vscode.Uri.file(file), list);
  const first = located[0] as BuildErrorLocation;
  const what = /^Controller Lab could not start (\S+):/.exec(text)?.[1] ?? 'the controller';
  const more = located.length > 1 ? ` (and ${located.length - 1} more)` : '';
  const choice = await vscode.window.showErrorMessage(
    `Controller Lab could not build ${what}: ${vscode.workspace.asRelativePath(first.file)}:${first.line}: ${first.message}${more}`,
    GO_TO_ERROR,
    SHOW_PROBLEMS,
  );
  if (choice === GO_TO_ERROR) {
    const at = new vscode.Position(first.line - 1, first.column - 1);
    await vscode.window.showTextDocument(vscode.Uri.file(first.file), { selection: new vscode.Range(at, at) });
  } else if (choice === SHOW_PROBLEMS) {
    await vscode.commands.executeCommand('workbench.actions.view.problems');
  }
}
