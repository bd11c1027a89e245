// The parts of the code and the imports each may make, as ESLint rules: the lint stage fails when a
// part reaches for what it must not (test/unit/architecture/layerRules.test.ts shows it does).
//
//   extension.ts ─▶ vscode, debug                VS Code layer (debug ─▶ vscode for workspace trust and the controller file)
//   vscode, debug, cli ─▶ kube, runtime, sim, informer, workqueue, shared (through their index.ts)
//   vscode, cli ─▶ setup ─▶ shared                 setup: edits a user's project (`init go`); no vscode
//   host ─▶ runtime (hostApi.ts), kube, informer, workqueue, shared    the controller's process
//   ─────────────────── core: no vscode, no outer layer ───────────────────
//   runtime ─▶ sim ─▶ informer ─▶ shared
//   runtime, sim ─▶ workqueue ─▶ shared          kube ─▶ informer, shared
//   webview ─▶ shared/protocol (and nothing else in src/)
//
// The core (shared, informer, workqueue, sim, runtime) runs in plain Node and the CLI. Parts with an
// index.ts are entered through it (a deep path is that part's implementation detail); inside a
// part, files import each other freely.

const forbid = (regex, message) => ({ regex, message });

const NO_VSCODE = { name: 'vscode', message: 'this part runs in plain Node (the CLI, a child process): no vscode here' };
const OUTER = forbid(
  '(^|/)(vscode|kube|debug|cli|host|webview|setup)/|(^|/)extension\\.ts$',
  'the core (shared, informer, workqueue, sim, runtime) imports no VS Code layer, kube client, controller host, debugger, CLI or project setup',
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
const ALL_ENTRIES = [INFORMER, WORKQUEUE, SIM, RUNTIME, KUBE, SETUP];

const SIM_INTERNALS = forbid('(^|/)sim/store/', "the simulated cluster's store is internal: import its types from src/sim/index.ts");

/** One block per part; every file matches one block, so each sees its whole list (a later block would replace it). */
const PARTS = [
  { files: ['src/shared/**'], vscode: false, patterns: [OUTER, forbid('(^|/)(informer|workqueue|sim|runtime)/', 'shared is the bottom layer: it imports nothing but itself')] },
  { files: ['src/shared/protocol/**'], vscode: false, patterns: [forbid('^\\.\\./(?!keys\\.ts$)', 'the webview compiles src/shared/protocol with it: it imports nothing outside it but shared/keys.ts')] },
  { files: ['src/informer/**'], vscode: false, patterns: [OUTER, forbid('(^|/)(sim|runtime)/', 'the informer knows backends only through ListerWatcher: no sim or runtime here'), WORKQUEUE] },
  { files: ['src/workqueue/**'], vscode: false, patterns: [OUTER, forbid('(^|/)(informer|sim|runtime)/', 'the workqueue stands alone: it imports only shared')] },
  { files: ['src/sim/**'], vscode: false, patterns: [OUTER, forbid('(^|/)runtime/', 'the simulated cluster runs no user controller: no runtime here'), INFORMER, WORKQUEUE] },
  { files: ['src/runtime/**'], vscode: false, patterns: [OUTER, INFORMER, WORKQUEUE, SIM] },
  { files: ['src/setup/**'], vscode: false, patterns: [forbid('(^|/)(vscode|kube|debug|cli|host|webview|informer|workqueue|sim|runtime)/|(^|/)extension\\.ts$', "setup edits a user's project for the CLI and the VS Code commands: it imports only shared")] },
  { files: ['src/kube/**'], vscode: false, patterns: [forbid('(^|/)(vscode|debug|cli|host|runtime|sim|workqueue|webview|setup)/|(^|/)extension\\.ts$', 'kube is the client for real clusters: it imports only informer (ListerWatcher) and shared'), INFORMER] },
  { files: ['src/host/**'], vscode: false, patterns: [forbid('(^|/)(vscode|debug|cli|webview|setup)/|(^|/)extension\\.ts$', "the controller host runs in the controller's process: no VS Code layer, debugger or CLI"), INFORMER, WORKQUEUE, SIM, KUBE, entered('runtime', ['hostApi'])] },
  { files: ['src/cli/**'], vscode: false, patterns: [forbid('(^|/)(vscode|debug|host|webview)/|(^|/)extension\\.ts$', 'the CLI runs without VS Code: no views, debugger or host internals'), ...ALL_ENTRIES] },
  { files: ['src/debug/**'], vscode: true, patterns: [forbid('(^|/)(cli|host|webview|setup)/', 'the debugger runs controllers through the runtime, not the CLI, host internals or project setup'), ...ALL_ENTRIES] },
  { files: ['src/vscode/**'], vscode: true, patterns: [SIM_INTERNALS, forbid('(^|/)(host|cli|debug|webview)/', 'the VS Code layer sees controllers through the runtime (not the debugger, the CLI or host internals), the timeline through shared/protocol'), ...ALL_ENTRIES] },
  { files: ['src/extension.ts'], vscode: true, patterns: [...ALL_ENTRIES] },
  { files: ['webview/**'], vscode: false, patterns: [forbid('(^|/)src/(?!shared/protocol/)|^\\.\\./\\.\\./(?!src/)', 'the webview sees only src/shared/protocol')] },
];

export function layerRules() {
  return PARTS.map(({ files, vscode, patterns }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { paths: vscode ? [] : [NO_VSCODE], patterns }] },
  }));
}
