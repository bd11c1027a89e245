// The parts of the code and the imports each may make, as ESLint rules: the lint stage fails when a
// part reaches for what it must not, by an import declaration or an `import('…')` (the tests in
// test/unit/architecture/layerRules.test.ts show it does).
//
//   extension.ts ─▶ vscode, debug/vscode         VS Code layer (debug/vscode ─▶ vscode for workspace trust and the controller file)
//   debug/vscode ─▶ debug, debug/go ─▶ debug      the debugger: its VS Code side, the Delve half, the DAP runtime (no vscode)
//   vscode, debug, cli ─▶ kube, runtime, sim, informer, workqueue, shared (through their index.ts)
//   vscode, cli ─▶ setup ─▶ shared                 setup: edits a user's project (`init go`); no vscode
//   simtest ─▶ kube, shared                         what a user's tests import: the command's sim and run, from outside
//   vscode, debug, cli ─▶ check ─▶ runtime, sim     check: runs a controller again and again, perturbed
//   host ─▶ controllerProtocol, kube, informer, workqueue, shared    the controller's process
//           (host/engine, the reconcile loop, sees the cluster only through its ports)
//   ─────────────────── core: no vscode, no outer layer ───────────────────
//   runtime ─▶ sim ─▶ informer ─▶ shared            runtime: the session side of a controller
//   runtime, host ─▶ controllerProtocol ─▶ informer (its probes), shared    the contract: the two sides never import each other
//   runtime, sim ─▶ workqueue ─▶ shared          kube ─▶ informer, shared
//   webview ─▶ shared/protocol (and nothing else in src/)
//
// The core (shared, informer, workqueue, sim, runtime, controllerProtocol) runs in plain Node and
// the CLI. Parts with an index.ts are entered through it (a deep path is that part's implementation
// detail); inside a part, files import each other freely, except in the simulated cluster, whose
// rooms stand on floors (SIM_FLOORS below), and in host/engine and the debugger (their blocks below).

import { layersPlugin, RULE_ID as DYNAMIC_IMPORT_RULE } from './dynamicImportRule.mjs';

const forbid = (regex, message) => ({ regex, message });

const NO_VSCODE = { name: 'vscode', message: 'this part runs in plain Node (the CLI, a child process): no vscode here' };
const OUTER = forbid(
  '(^|/)(vscode|kube|debug|cli|host|webview|setup|check)/|(^|/)extension\\.ts$',
  'the core (shared, informer, workqueue, sim, runtime, controllerProtocol) imports no VS Code layer, kube client, controller host, debugger, CLI, project setup or check',
);

/** A part with an index.ts: from outside, only its index.ts (and the extra entries named) may be imported. */
const entered = (part, extra = []) =>
  forbid(`(^|/)${part}/(?!(${['index', ...extra].join('|')})\\.ts$)`, `enter ${part} through src/${part}/index.ts${extra.map((e) => ` or ${e}.ts`).join('')}`);
const INFORMER = entered('informer');
const WORKQUEUE = entered('workqueue');
const SIM = entered('sim');
const RUNTIME = entered('runtime');
const KUBE = entered('kube');
const SETUP = entered('setup');
const CONTROLLER_PROTOCOL = entered('controllerProtocol');
const CHECK = entered('check');
const ALL_ENTRIES = [INFORMER, WORKQUEUE, SIM, RUNTIME, KUBE, SETUP, CONTROLLER_PROTOCOL, CHECK];

const SIM_INTERNALS = forbid('(^|/)sim/store/', "the simulated cluster's store is internal: import its types from src/sim/index.ts");

/**
 * The simulated cluster's floors, from the ground up. A room (a folder of src/sim, or a file directly
 * in it) imports only rooms on lower floors, so a request walks down and never back up. A new room
 * takes its place here (a unit test fails until it does).
 */
export const SIM_FLOORS = [
  // Words every part shares (object metadata, ResourceInfo, table cells, UserInfo …), k8s.io/api's Go
  // types as generated tables, and leaves that need nothing of the sim.
  ['vocabulary', 'goTypes', 'selectors', 'tls'],
  // API machinery: patches, OpenAPI documents, CRD schemas and CEL, one module per built-in kind,
  // and resource quota's evaluation.
  ['patch', 'openapi', 'crdSchema', 'kinds', 'quota'],
  // The registry of served resources, and server-side apply.
  ['resources', 'apply'],
  // The MVCC store: writes with the API server's semantics, watches, persistence.
  ['store'],
  // What acts on the store from inside: the built-in workload controllers, and the fault table.
  ['workloads', 'faults'],
  // The narrow faces of the cluster its own parts are handed.
  ['simObjects.ts'],
  // What runs against those faces: scenarios, the bootstrap and control plane, RBAC, the in-process ListerWatcher.
  ['scenario', 'bootstrap', 'auth', 'simListerWatcher.ts'],
  // The cluster assembled, and admission (webhooks called around the cluster's writes).
  ['simCluster.ts', 'admission'],
  // The HTTPS server.
  ['server'],
  // The public face: what the rest of the product imports (nothing inside src/sim does).
  ['index.ts'],
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An import of `room` as written in a file of a folder room (`../store/…`, `../../store/…`) or in a
 * file directly in src/sim (`./store/…`).
 */
function simRoomImport(room, fromRootFile) {
  const up = fromRootFile ? '\\./' : '(\\.\\./)+';
  return room.endsWith('.ts') ? `^${up}${escape(room)}$` : `^${up}${escape(room)}/`;
}

/** For one room of src/sim: every room on its floor or above, forbidden. */
function simFloorPatterns(room) {
  const floor = SIM_FLOORS.findIndex((rooms) => rooms.includes(room));
  const above = SIM_FLOORS.slice(floor).flat().filter((r) => r !== room);
  const fromRootFile = room.endsWith('.ts');
  return above.map((r) =>
    forbid(simRoomImport(r, fromRootFile), `src/sim/${room} stands on floor ${floor + 1} of the simulated cluster (scripts/layers.mjs, SIM_FLOORS): it may not import ${r}, on floor ${SIM_FLOORS.findIndex((rooms) => rooms.includes(r)) + 1}`),
  );
}

const SIM_PART = [OUTER, forbid('(^|/)(runtime|controllerProtocol)/', 'the simulated cluster runs no user controller: no runtime or controller protocol here'), INFORMER, WORKQUEUE];

const HOST_PART = [
  forbid('(^|/)(vscode|debug|cli|webview|setup|runtime|sim|check)/|(^|/)extension\\.ts$', "the controller host runs in the controller's process: it speaks to its session through the controller protocol alone and reaches the cluster through kube; no VS Code layer, debugger, CLI, session side, simulated cluster or check"),
  INFORMER,
  WORKQUEUE,
  KUBE,
  CONTROLLER_PROTOCOL,
];
const ENGINE_PORTS = forbid(
  '(^|/)(informer|workqueue|kube)/|^\\.\\./[^./][^/]*$',
  'the engine drives a controller through its ports (host/engine/ports.ts): it imports neither the informer, workqueue or kube client nor the host files that bind the ports to them',
);

const DEBUG_OUTSIDE = forbid('(^|/)(cli|host|webview|setup)/', 'the debugger runs controllers through the runtime, not the CLI, host internals or project setup');
const DEBUG_WITHOUT_VSCODE = forbid(
  '(^|/)vscode/',
  "the reconcile debugger's runtime and DAP session run without VS Code (the standalone adapter, the tests): only src/debug/vscode talks to VS Code and the views",
);

/** One block per part; every file matches one block, so each sees its whole list (a later block would replace it). */
const PARTS = [
  { files: ['src/shared/**'], vscode: false, patterns: [OUTER, forbid('(^|/)(informer|workqueue|sim|runtime|controllerProtocol)/', 'shared is the bottom layer: it imports nothing but itself')] },
  { files: ['src/shared/protocol/**'], vscode: false, patterns: [forbid('^\\.\\./(?!keys\\.ts$)', 'the webview compiles src/shared/protocol with it: it imports nothing outside it but shared/keys.ts')] },
  { files: ['src/informer/**'], vscode: false, patterns: [OUTER, forbid('(^|/)(sim|runtime|controllerProtocol)/', 'the informer knows backends only through ListerWatcher: no sim, runtime or controller protocol here'), WORKQUEUE] },
  { files: ['src/workqueue/**'], vscode: false, patterns: [OUTER, forbid('(^|/)(informer|sim|runtime|controllerProtocol)/', 'the workqueue stands alone: it imports only shared')] },
  { files: ['src/sim/**'], vscode: false, patterns: SIM_PART },
  // The blocks of sim's rooms replace the one above for their files, so each carries SIM_PART too.
  ...SIM_FLOORS.flat().map((room) => ({ files: [room.endsWith('.ts') ? `src/sim/${room}` : `src/sim/${room}/**`], vscode: false, patterns: [...SIM_PART, ...simFloorPatterns(room)] })),
  { files: ['src/runtime/**'], vscode: false, patterns: [OUTER, INFORMER, WORKQUEUE, SIM, CONTROLLER_PROTOCOL] },
  { files: ['src/controllerProtocol/**'], vscode: false, patterns: [OUTER, forbid('(^|/)(runtime|sim|workqueue)/', "the controller protocol is the contract between a controller's process and its session: it imports neither side, only the informer's probes and shared"), INFORMER] },
  { files: ['src/check/**'], vscode: false, patterns: [forbid('(^|/)(vscode|kube|debug|cli|host|webview|setup)/|(^|/)extension\\.ts$', 'check runs controllers through the runtime on the simulated cluster: no VS Code layer, kube client, debugger, CLI or host internals'), INFORMER, WORKQUEUE, SIM, RUNTIME, CONTROLLER_PROTOCOL] },
  { files: ['src/setup/**'], vscode: false, patterns: [forbid('(^|/)(vscode|kube|debug|cli|host|webview|informer|workqueue|sim|runtime|controllerProtocol|check)/|(^|/)extension\\.ts$', "setup edits a user's project for the CLI and the VS Code commands: it imports only shared")] },
  { files: ['src/kube/**'], vscode: false, patterns: [forbid('(^|/)(vscode|debug|cli|host|runtime|controllerProtocol|check|sim|workqueue|webview|setup)/|(^|/)extension\\.ts$', 'kube is the client for real clusters: it imports only informer (ListerWatcher) and shared'), INFORMER] },
  { files: ['src/simtest/**'], vscode: false, patterns: [forbid('(^|/)(vscode|debug|cli|host|webview|setup|check|runtime|sim|informer|workqueue|controllerProtocol)/|(^|/)extension\\.ts$', "simtest, which a user's tests import, drives the `controller-lab` command's sim and run from outside: it imports only kube (the client) and shared"), KUBE] },
  { files: ['src/host/**'], vscode: false, patterns: HOST_PART },
  { files: ['src/host/engine/**'], vscode: false, patterns: [...HOST_PART, ENGINE_PORTS] },
  { files: ['src/cli/**'], vscode: false, patterns: [forbid('(^|/)(vscode|debug|host|webview)/|(^|/)extension\\.ts$', 'the CLI runs without VS Code: no views, debugger or host internals'), ...ALL_ENTRIES] },
  // The reconcile debugger: its runtime and DAP session (src/debug, src/debug/go) run without VS Code
  // (the standalone adapter, the tests); its VS Code side (src/debug/vscode) registers them.
  { files: ['src/debug/**'], vscode: false, patterns: [DEBUG_OUTSIDE, DEBUG_WITHOUT_VSCODE, ...ALL_ENTRIES] },
  { files: ['src/debug/vscode/**'], vscode: true, patterns: [DEBUG_OUTSIDE, ...ALL_ENTRIES] },
  { files: ['src/vscode/**'], vscode: true, patterns: [SIM_INTERNALS, forbid('(^|/)(host|cli|debug|webview)/', 'the VS Code layer sees controllers through the runtime (not the debugger, the CLI or host internals), the timeline through shared/protocol'), ...ALL_ENTRIES] },
  { files: ['src/extension.ts'], vscode: true, patterns: [...ALL_ENTRIES] },
  { files: ['webview/**'], vscode: false, patterns: [forbid('(^|/)src/(?!shared/protocol/)|^\\.\\./\\.\\./(?!src/)', 'the webview sees only src/shared/protocol')] },
];

/** Each part's block: its imports, static (no-restricted-imports) and dynamic (`import('…')`), held to the same paths and patterns. */
export function layerRules() {
  return PARTS.map(({ files, vscode, patterns }) => {
    const options = { paths: vscode ? [] : [NO_VSCODE], patterns };
    return {
      files,
      plugins: { layers: layersPlugin },
      rules: { 'no-restricted-imports': ['error', options], [DYNAMIC_IMPORT_RULE]: ['error', options] },
    };
  });
}
