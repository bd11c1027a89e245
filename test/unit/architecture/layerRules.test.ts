import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

// The lint stage enforces the layers (scripts/layers.mjs): these lint small in-memory files placed
// in each part with the repository's own ESLint config, as `npm run lint` would.

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const eslint = new ESLint({ cwd: repo });

/** The import-rule messages ESLint gives for `source` if it were the file at `path`. */
async function importProblems(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(repo, path) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const forbidden: [string, string, string, RegExp][] = [
  ['the core importing the kube client', 'src/runtime/newPart.ts', "import { loadCluster } from '../kube/index.ts';", /the core .* imports no VS Code layer, kube client/],
  ['the core importing the controller host', 'src/sim/newPart.ts', "import { stripTypes } from '../host/typeStripping.ts';", /the core .* controller host/],
  ['the core importing vscode', 'src/informer/newPart.ts', "import * as vscode from 'vscode';", /no vscode here/],
  ['the informer importing the sim', 'src/informer/newPart.ts', "import type { SimObjects } from '../sim/index.ts';", /the informer knows backends only through ListerWatcher/],
  ['the views importing the sim store', 'src/vscode/tree/newPart.ts', "import type { ClientInfo } from '../../sim/store/types.ts';", /the simulated cluster's store is internal/],
  ['the views importing the debugger', 'src/vscode/controllers/newPart.ts', "import { activateDebug } from '../../debug/activateDebug.ts';", /not the debugger/],
  ['the webview importing anything in src but the protocol', 'webview/timeline/newPart.ts', "import type { KubeObject } from '../../src/shared/k8s.ts';", /the webview sees only src\/shared\/protocol/],
  ['the CLI entering the informer by a deep path', 'src/cli/newPart.ts', "import { Reflector } from '../informer/reflector.ts';", /enter informer through src\/informer\/index\.ts/],
  ['the debugger entering the runtime by a deep path', 'src/debug/newPart.ts', "import { ControllerLoop } from '../runtime/controllerLoop.ts';", /enter runtime through src\/runtime\/index\.ts/],
  ['project setup importing the sim', 'src/setup/goProject/newPart.ts', "import { checkScenario } from '../../sim/index.ts';", /setup edits a user's project .*: it imports only shared/],
  ['project setup importing vscode', 'src/setup/goProject/newPart.ts', "import * as vscode from 'vscode';", /no vscode here/],
  ['the CLI entering project setup by a deep path', 'src/cli/newPart.ts', "import { wrapManager } from '../setup/goProject/mainWrap.ts';", /enter setup through src\/setup\/index\.ts/],
  ['the core importing project setup', 'src/runtime/newPart.ts', "import { setUpGoProject } from '../setup/index.ts';", /the core .* or project setup/],
  ['the runtime entering the sim by a deep path', 'src/runtime/newPart.ts', "import { SimCluster } from '../sim/simCluster.ts';", /enter sim through src\/sim\/index\.ts/],
];

for (const [what, path, source, message] of forbidden) {
  test(`lint fails on ${what}`, async () => {
    const problems = await importProblems(path, source + '\nexport {};\n');
    assert.ok(problems.some((p) => message.test(p)), `expected ${message} for ${path}, got ${JSON.stringify(problems)}`);
  });
}

test('lint allows the arrows the layers draw', async () => {
  const allowed: [string, string][] = [
    ['src/host/newPart.ts', "import { loadCluster } from '../kube/index.ts';\nimport { ControllerLoop } from '../runtime/hostApi.ts';"],
    ['src/runtime/newPart.ts', "import { createSimCluster } from '../sim/index.ts';\nimport { createSharedInformer } from '../informer/index.ts';"],
    ['src/vscode/tree/newPart.ts', "import type { ClientInfo } from '../../sim/index.ts';\nimport * as vscode from 'vscode';"],
    ['src/sim/store/newPart.ts', "import type { Stored } from './storedObject.ts';\nimport type { ListOptions } from '../../informer/index.ts';"],
    ['webview/timeline/newPart.ts', "import type { TimelineEvent } from '../../src/shared/protocol/timeline.ts';"],
    ['src/cli/newPart.ts', "import { setUpGoProject } from '../setup/index.ts';"],
    ['src/vscode/commands/newPart.ts', "import { setUpGoProject } from '../../setup/index.ts';\nimport * as vscode from 'vscode';"],
    ['src/setup/goProject/newPart.ts', "import { GoSource } from './goScanner.ts';\nimport type { KubeObject } from '../../shared/k8s.ts';"],
  ];
  for (const [path, source] of allowed) {
    assert.deepEqual(await importProblems(path, source + '\nexport {};\n'), [], path);
  }
});
