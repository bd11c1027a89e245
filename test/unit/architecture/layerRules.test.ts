import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import { layerRules, SIM_FLOORS } from '../../../scripts/layers.mjs';
import { RULE_ID as DYNAMIC_IMPORT_RULE } from '../../../scripts/dynamicImportRule.mjs';

// The lint stage enforces the layers (scripts/layers.mjs): these lint small in-memory files placed
// in each part with the repository's own ESLint config, as `npm run lint` would.

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const eslint = new ESLint({ cwd: repo });

const IMPORT_RULES = ['no-restricted-imports', DYNAMIC_IMPORT_RULE];

/** The import-rule messages ESLint gives for `source` if it were the file at `path` (declarations and `import()`). */
async function importProblems(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(repo, path) });
  return (result?.messages ?? []).filter((m) => IMPORT_RULES.includes(m.ruleId ?? '')).map((m) => m.message);
}

const forbidden: [string, string, string, RegExp][] = [
  ['the core importing the kube client', 'src/runtime/newPart.ts', "import { loadCluster } from '../kube/index.ts';", /the core .* imports no VS Code layer, kube client/],
  ['the core importing the controller host', 'src/sim/newPart.ts', "import { stripTypes } from '../host/typeStripping.ts';", /the core .* controller host/],
  ['the core importing vscode', 'src/informer/newPart.ts', "import * as vscode from 'vscode';", /no vscode here/],
  ['the informer importing the sim', 'src/informer/newPart.ts', "import type { SimObjects } from '../sim/index.ts';", /the informer knows backends only through ListerWatcher/],
  ['the views importing the sim store', 'src/vscode/tree/newPart.ts', "import type { ClientInfo } from '../../sim/store/types.ts';", /the simulated cluster's store is internal/],
  ['the views importing the debugger', 'src/vscode/controllers/newPart.ts', "import { activateDebug } from '../../debug/vscode/activateDebug.ts';", /not the debugger/],
  ['the webview importing anything in src but the protocol', 'webview/timeline/newPart.ts', "import type { KubeObject } from '../../src/shared/k8s.ts';", /the webview sees only src\/shared\/protocol/],
  ['the CLI entering the informer by a deep path', 'src/cli/newPart.ts', "import { Reflector } from '../informer/reflector.ts';", /enter informer through src\/informer\/index\.ts/],
  ['the debugger entering the runtime by a deep path', 'src/debug/newPart.ts', "import { ControllerSession } from '../runtime/controllerSession.ts';", /enter runtime through src\/runtime\/index\.ts/],
  ['project setup importing the sim', 'src/setup/goProject/newPart.ts', "import { checkScenario } from '../../sim/index.ts';", /setup edits a user's project .*: it imports only shared/],
  ['project setup importing vscode', 'src/setup/goProject/newPart.ts', "import * as vscode from 'vscode';", /no vscode here/],
  ['the CLI entering project setup by a deep path', 'src/cli/newPart.ts', "import { wrapManager } from '../setup/goProject/mainWrap.ts';", /enter setup through src\/setup\/index\.ts/],
  ['the core importing project setup', 'src/runtime/newPart.ts', "import { setUpGoProject } from '../setup/index.ts';", /the core .* project setup/],
  ['the controller host importing the session side', 'src/host/newPart.ts', "import { ControllerSession } from '../runtime/index.ts';", /speaks to its session through the controller protocol alone/],
  ['the session side importing the controller host', 'src/runtime/newPart.ts', "import { ControllerLoop } from '../host/engine/controllerLoop.ts';", /the core .* controller host/],
  ['the controller protocol importing the session side', 'src/controllerProtocol/newPart.ts', "import type { ControllerSession } from '../runtime/index.ts';", /the contract between a controller's process and its session: it imports neither side/],
  ['the controller protocol importing the controller host', 'src/controllerProtocol/newPart.ts', "import type { KindInformer } from '../host/engine/ports.ts';", /the core .* controller host/],
  ['the engine importing the informer', 'src/host/engine/newPart.ts', "import { createSharedInformer } from '../../informer/index.ts';", /the engine drives a controller through its ports/],
  ['the engine importing a host adapter', 'src/host/engine/newPart.ts', "import { WorkQueueAdapter } from '../queueAdapter.ts';", /the engine drives a controller through its ports/],
  ['the host entering the controller protocol by a deep path', 'src/host/newPart.ts', "import type { HostMessage } from '../controllerProtocol/protocol.ts';", /enter controllerProtocol through src\/controllerProtocol\/index\.ts/],
  ['the debugger\'s runtime importing vscode', 'src/debug/newPart.ts', "import * as vscode from 'vscode';", /no vscode here/],
  ['the Delve half importing vscode', 'src/debug/go/newPart.ts', "import * as vscode from 'vscode';", /no vscode here/],
  ['the debugger\'s runtime importing the views', 'src/debug/newPart.ts', "import { isTrusted } from '../vscode/workspaceTrust.ts';", /only src\/debug\/vscode talks to VS Code/],
  ['the debugger\'s runtime importing its VS Code side', 'src/debug/go/newPart.ts', "import { DEBUG_TYPE } from '../vscode/debugType.ts';", /only src\/debug\/vscode talks to VS Code/],
  ['the runtime entering the sim by a deep path', 'src/runtime/newPart.ts', "import { SimCluster } from '../sim/simCluster.ts';", /enter sim through src\/sim\/index\.ts/],
];

for (const [what, path, source, message] of forbidden) {
  test(`lint fails on ${what}`, async () => {
    const problems = await importProblems(path, source + '\nexport {};\n');
    assert.ok(problems.some((p) => message.test(p)), `expected ${message} for ${path}, got ${JSON.stringify(problems)}`);
  });
}

// Inside src/sim: a room imports only rooms on lower floors (SIM_FLOORS).
const simForbidden: [string, string, string, RegExp][] = [
  ['a kind importing the server', 'src/sim/kinds/newPart.ts', "import type { TableColumn } from '../server/printerColumns.ts';", /src\/sim\/kinds stands on floor 2 .* may not import server, on floor 9/],
  ['a kind importing the store', 'src/sim/kinds/newPart.ts', "import { ApiStore } from '../store/apiStore.ts';", /src\/sim\/kinds .* may not import store/],
  ['the store importing the server', 'src/sim/store/newPart.ts', "import { MAX_REQUEST_BODY_BYTES } from '../server/requestBody.ts';", /src\/sim\/store .* may not import server/],
  ['the vocabulary importing the store', 'src/sim/vocabulary/newPart.ts', "import type { StoredObject } from '../store/types.ts';", /src\/sim\/vocabulary stands on floor 1 .* may not import store/],
  ['the bootstrap importing simCluster.ts', 'src/sim/bootstrap/newPart.ts', "import type { SimClusterApi } from '../simCluster.ts';", /src\/sim\/bootstrap .* may not import simCluster\.ts/],
  ['a room importing one beside it on its floor', 'src/sim/resources/newPart.ts', "import { applyConfiguration } from '../apply/fieldManager.ts';", /src\/sim\/resources .* may not import apply/],
  ['a file deep in a room importing one above it', 'src/sim/crdSchema/cel/newPart.ts', "import type { MvccStore } from '../../store/mvccStore.ts';", /src\/sim\/crdSchema .* may not import store/],
  ['a file of src/sim importing a room above it', 'src/sim/simObjects.ts', "import { startSimServer } from './server/simServer.ts';", /src\/sim\/simObjects\.ts .* may not import server/],
  ['a room importing the public face', 'src/sim/server/newPart.ts', "import { createSimCluster } from '../index.ts';", /src\/sim\/server .* may not import index\.ts/],
];

for (const [what, path, source, message] of simForbidden) {
  test(`lint fails on ${what}`, async () => {
    const problems = await importProblems(path, source + '\nexport {};\n');
    assert.ok(problems.some((p) => message.test(p)), `expected ${message} for ${path}, got ${JSON.stringify(problems)}`);
  });
}

test('lint allows imports down the floors of src/sim', async () => {
  const allowed: [string, string][] = [
    ['src/sim/store/newPart.ts', "import { strategyFor } from '../kinds/index.ts';\nimport type { ResourceInfo } from '../vocabulary/resourceInfo.ts';\nimport { encodeAsGo } from '../goTypes/goEncoding.ts';"],
    ['src/sim/server/protobuf/newPart.ts', "import { GENERATED_KINDS } from '../../goTypes/generatedSchemas.ts';\nimport type { StoredObject } from '../../store/types.ts';\nimport { readBody } from '../requestBody.ts';"],
    ['src/sim/simCluster.ts', "import { bootstrapApiServer } from './bootstrap/apiServerBootstrap.ts';\nimport { ApiStore } from './store/apiStore.ts';"],
    ['src/sim/kinds/newPart.ts', "import type { KindModule } from './kindModule.ts';\nimport { NAME_COLUMN } from '../vocabulary/tableCells.ts';"],
    ['src/sim/index.ts', "import { startSimServer } from './server/simServer.ts';"],
  ];
  for (const [path, source] of allowed) {
    assert.deepEqual(await importProblems(path, source + '\nexport {};\n'), [], path);
  }
});

test('every folder and file of src/sim stands on one floor', () => {
  const rooms = readdirSync(join(repo, 'src', 'sim'), { withFileTypes: true })
    .filter((e) => e.isDirectory() || e.name.endsWith('.ts'))
    .map((e) => e.name)
    .sort();
  const placed = SIM_FLOORS.flat();
  assert.deepEqual(rooms.filter((r) => !placed.includes(r)), [], 'give each new room of src/sim its floor in SIM_FLOORS (scripts/layers.mjs)');
  assert.deepEqual(placed.filter((r) => placed.indexOf(r) !== placed.lastIndexOf(r)), [], 'a room stands on one floor');
  assert.deepEqual(placed.filter((r) => !rooms.includes(r)), [], 'SIM_FLOORS names only rooms that exist');
});

test('lint allows the arrows the layers draw', async () => {
  const allowed: [string, string][] = [
    ['src/host/newPart.ts', "import { loadCluster } from '../kube/index.ts';\nimport { ControllerLoop } from './engine/controllerLoop.ts';\nimport type { HostMessage } from '../controllerProtocol/index.ts';"],
    ['src/host/engine/newPart.ts', "import type { KindInformer } from './ports.ts';\nimport type { ReconcileRecord } from '../../controllerProtocol/index.ts';\nimport { splitKey } from '../../shared/keys.ts';"],
    ['src/controllerProtocol/newPart.ts', "import type { Probe } from '../informer/index.ts';\nimport type { KubeObject } from '../shared/k8s.ts';"],
    ['src/runtime/newPart.ts', "import { createSimCluster } from '../sim/index.ts';\nimport { createSharedInformer } from '../informer/index.ts';\nimport type { HostMessage } from '../controllerProtocol/index.ts';"],
    ['src/vscode/tree/newPart.ts', "import type { ClientInfo } from '../../sim/index.ts';\nimport * as vscode from 'vscode';"],
    ['src/sim/store/newPart.ts', "import type { Stored } from './storedObject.ts';\nimport type { ListOptions } from '../../informer/index.ts';"],
    ['webview/timeline/newPart.ts', "import type { TimelineEvent } from '../../src/shared/protocol/timeline.ts';"],
    ['src/cli/newPart.ts', "import { setUpGoProject } from '../setup/index.ts';"],
    ['src/debug/vscode/newPart.ts', "import * as vscode from 'vscode';\nimport { isTrusted } from '../../vscode/workspaceTrust.ts';\nimport { ATTACH_JS_EVENT } from '../reconcileDebugSession.ts';"],
    ['src/debug/go/newPart.ts', "import type { DebugProtocol } from '@vscode/debugprotocol';\nimport { TypedEmitter } from '../../runtime/index.ts';\nimport { ReconcileDebugSession } from '../reconcileDebugSession.ts';"],
    ['src/vscode/commands/newPart.ts', "import { setUpGoProject } from '../../setup/index.ts';\nimport * as vscode from 'vscode';"],
    ['src/setup/goProject/newPart.ts', "import { GoSource } from './goScanner.ts';\nimport type { KubeObject } from '../../shared/k8s.ts';"],
  ];
  for (const [path, source] of allowed) {
    assert.deepEqual(await importProblems(path, source + '\nexport {};\n'), [], path);
  }
});

// `import('…')` of a literal path is held to the same rules as an import declaration.
const dynamicForbidden: [string, string, string, RegExp][] = [
  ['the CLI entering kube by a deep path through import()', 'src/cli/newPart.ts', "export const load = () => import('../kube/cluster.ts');", /enter kube through src\/kube\/index\.ts/],
  ['the core importing vscode through import()', 'src/runtime/newPart.ts', "export const load = () => import('vscode');", /no vscode here/],
  ['the informer importing the sim through import() of a template literal', 'src/informer/newPart.ts', 'export const load = () => import(`../sim/index.ts`);', /the informer knows backends only through ListerWatcher/],
  ['a kind importing the server through import()', 'src/sim/kinds/newPart.ts', "export const load = () => import('../server/simServer.ts');", /src\/sim\/kinds stands on floor 2 .* may not import server/],
];

for (const [what, path, source, message] of dynamicForbidden) {
  test(`lint fails on ${what}`, async () => {
    const [result] = await eslint.lintText(source + '\n', { filePath: join(repo, path) });
    const problems = (result?.messages ?? []).filter((m) => m.ruleId === DYNAMIC_IMPORT_RULE).map((m) => m.message);
    assert.ok(problems.some((p) => message.test(p)), `expected ${message} for ${path}, got ${JSON.stringify(result?.messages)}`);
  });
}

test('lint allows import() down the layers, and cannot judge a computed one', async () => {
  const allowed: [string, string][] = [
    ['src/cli/newPart.ts', "export const load = () => Promise.all([import('./watch.ts'), import('../informer/index.ts'), import('node:fs')]);"],
    ['src/runtime/newPart.ts', 'export const load = (name: string) => import(name);'],
  ];
  for (const [path, source] of allowed) {
    assert.deepEqual(await importProblems(path, source + '\n'), [], path);
  }
});

test('every part holds import() to the same paths and patterns as its import declarations', () => {
  for (const block of layerRules()) {
    const rules = block.rules ?? {};
    assert.deepEqual(rules[DYNAMIC_IMPORT_RULE], rules['no-restricted-imports'], String(block.files));
  }
});
