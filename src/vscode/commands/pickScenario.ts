import * as vscode from 'vscode';

// Which scenario "Load Scenario…" loads when it is not run on a file: the YAML file in the editor
// (the scenario being written), then the workspace's scenario files (`scenario.yaml` beside a
// controller, `scenarios/*.yaml`, a set-up Go project's `controller-lab/scenario.yaml`), then a
// file dialog. A new user gets the bundled scenarios one click away instead of a bare folder.

const SCENARIO_FILES = '{**/scenario.yaml,**/scenario.yml,**/scenarios/*.yaml,**/scenarios/*.yml}';
const NOT_SCENARIOS = '**/{node_modules,vendor,.git}/**';

interface ScenarioPick extends vscode.QuickPickItem {
  uri?: vscode.Uri;
}

/** A scenario's Uri; undefined for the file dialog; 'cancelled' when the user closed the picker. */
export async function pickScenario(): Promise<vscode.Uri | undefined | 'cancelled'> {
  const active = vscode.window.activeTextEditor?.document.uri;
  // Only a file of the user's (not an object document of ours, also YAML) can be a scenario.
  const editing = active && (active.scheme === 'file' || active.scheme === 'untitled') && /\.ya?ml$/i.test(active.path) ? active : undefined;
  const found = (await vscode.workspace.findFiles(SCENARIO_FILES, NOT_SCENARIOS, 50))
    .filter((uri) => uri.toString() !== editing?.toString())
    .sort((a, b) => a.path.localeCompare(b.path));
  if (!editing && found.length === 0) return undefined;
  const items: ScenarioPick[] = [
    ...(editing ? [{ label: `$(file) ${editing.path.split('/').pop()}`, description: 'the file in the editor', uri: editing }] : []),
    ...found.map((uri) => ({ label: `$(file) ${vscode.workspace.asRelativePath(uri)}`, description: 'in the workspace', uri })),
    { label: '$(folder-opened) Choose a file…' },
  ];
  const choice = await vscode.window.showQuickPick(items, { placeHolder: 'Load which scenario into the simulated cluster?' });
  if (!choice) return 'cancelled';
  return choice.uri;
}
