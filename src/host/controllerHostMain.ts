// The controller host: a child process that runs one user controller. It compiles nothing (the
// parent hands it a bundle, or the user's entry file to load with type stripping), connects to the
// cluster with a kubeconfig, runs the informers, the workqueue and the workers, and reports
// everything to its parent over IPC. It exits when the parent says so or goes away, so a debug
// session never leaves it behind.
import inspector from 'node:inspector';
import { pathToFileURL } from 'node:url';
import { realClock } from '../shared/clock.ts';
import { loadCluster } from '../kube/index.ts';
import { createWorkQueue } from '../workqueue/index.ts';
import { isControllerDefinition, isParentMessage, userApi, USER_API_GLOBAL, type ControllerDefinition, type HostInit, type HostMessage, type KindRef } from '../controllerProtocol/index.ts';
import { ControllerLoop } from './engine/controllerLoop.ts';
import { truncateText } from './engine/truncate.ts';
import { ProcessExitError } from './processExitError.ts';
import { ClusterBinding } from './clusterBinding.ts';
import { registerControllerModuleHooks } from './controllerModuleHooks.ts';
import { WorkQueueAdapter } from './queueAdapter.ts';
import { HostSender } from './hostSender.ts';

const sender = new HostSender((message) => {
  if (process.connected) process.send?.(message);
});
const send = (message: HostMessage): void => sender.send(message);

// Only the parent ends this process. A controller (or a library it uses) calling process.exit
// gets an error thrown where it called it instead: inside a reconcile that is a failed reconcile,
// reported with its key and retried, and the other keys carry on.
const exitProcess: (code?: number) => never = process.exit.bind(process);
process.exit = ((code?: number | string | null) => {
  throw new ProcessExitError(code);
}) as typeof process.exit;

function fail(phase: 'load' | 'connect' | 'run', err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  send({ type: 'fatal', phase, message: e.message, stack: e.stack });
}

async function loadDefinition(init: HostInit): Promise<ControllerDefinition> {
  (globalThis as Record<symbol, unknown>)[USER_API_GLOBAL] = userApi;
  if (init.loader === 'typeStripping') registerControllerModuleHooks();
  const mod = (await import(pathToFileURL(init.moduleFile).href)) as Record<string, unknown>;
  const found = Object.values(mod).filter(isControllerDefinition);
  if (isControllerDefinition(mod['default'])) return mod['default'];
  if (found.length === 1 && found[0]) return found[0];
  if (found.length > 1) throw new Error(`${init.sourceFile} exports ${found.length} controllers; export one as default`);
  throw new Error(`${init.sourceFile} exports no controller: add \`export default defineController({ … })\``);
}

const gateWaiters = new Map<string, (decision: { stepIn?: boolean }) => void>();

/** Opens the inspector on first use, tells the parent where, and waits for a debugger to attach. */
async function prepareStepIn(): Promise<void> {
  if (inspector.url()) return;
  inspector.open(0, '127.0.0.1', false);
  const url = inspector.url();
  if (!url) return;
  // The message must leave before waitForDebugger blocks this thread.
  sender.flush();
  await new Promise<void>((resolve) => (process.connected ? process.send?.({ type: 'inspector', url } satisfies HostMessage, () => resolve()) : resolve()));
  inspector.waitForDebugger();
}
/** The first beat leaves before the user's module loads, so even its top-level code is watched. */
function startHeartbeat(everyMs: number | undefined): void {
  if (!everyMs || everyMs <= 0) return;
  send({ type: 'heartbeat' });
  setInterval(() => send({ type: 'heartbeat' }), everyMs).unref();
}

let loop: ControllerLoop | undefined;
let binding: ClusterBinding | undefined;
let shuttingDown = false;

async function shutdown(code: number): Promise<never> {
  if (!shuttingDown) {
    shuttingDown = true;
    for (const open of gateWaiters.values()) open({});
    await loop?.stop().catch(() => {});
    binding?.close();
  }
  sender.flush();
  exitProcess(code);
}

async function run(init: HostInit): Promise<void> {
  let definition: ControllerDefinition;
  try {
    definition = await loadDefinition(init);
  } catch (err) {
    fail('load', err);
    return shutdown(3);
  }
  send({ type: 'loaded' });
  try {
    // What keeps the cluster from answering (a credential plugin's prompt, its silence) goes to
    // stderr, which run prints and the debugger shows.
    const onWarning = (w: string): void => void process.stderr.write(`warning: ${w}\n`);
    binding = new ClusterBinding(loadCluster({ kubeconfig: init.kubeconfig, context: init.context, onWarning }));
    await binding.discover();
    const kinds = new Map<string, KindRef>();
    for (const k of [definition.for, ...(definition.owns ?? []), ...(definition.watches ?? [])]) kinds.set(`${k.apiVersion}/${k.kind}`, { apiVersion: k.apiVersion, kind: k.kind });
    const b = binding;
    const informers = [...kinds.values()].map((k) => b.informer(k, realClock, (probe) => send({ type: 'probe', probe }), init.jitterSeed));
    const queue = new WorkQueueAdapter(createWorkQueue<string>({ name: definition.name, clock: realClock }), realClock);
    loop = new ControllerLoop({
      definition,
      informers,
      queue,
      writer: binding.writer(),
      clock: realClock,
      workers: init.workers ?? definition.maxConcurrentReconciles ?? 1,
      holdBack: init.holdBack,
      reconcileSeq: init.reconcileSeq,
      deltaSeq: init.deltaSeq,
      reconcileTimeoutMs: init.reconcileTimeoutMs,
      mirrorCache: init.mirrorCache,
      gate: init.gated ? (record) => new Promise<{ stepIn?: boolean }>((resolve) => gateWaiters.set(record.reconcileId, resolve)) : undefined,
      prepareStepIn,
      send,
    });
    send({ type: 'ready', controller: loop.shape });
    await loop.start();
  } catch (err) {
    fail('connect', err);
    return shutdown(4);
  }
}

process.on('message', (message: unknown) => {
  if (!isParentMessage(message)) return;
  switch (message.type) {
    case 'init':
      startHeartbeat(message.heartbeatMs);
      void run(message);
      return;
    case 'proceed': {
      const open = gateWaiters.get(message.reconcileId);
      gateWaiters.delete(message.reconcileId);
      open?.({ stepIn: message.stepIn });
      return;
    }
    case 'shutdown':
      void shutdown(0);
      return;
    case 'resync':
      loop?.resync();
      return;
  }
});

// The parent went away (crash, kill, closed debug session): nobody is listening, stop.
process.on('disconnect', () => void shutdown(0));

// User code that forgets to await a promise must not kill the controller; report it instead.
process.on('unhandledRejection', (reason) => {
  const e = reason instanceof Error ? reason : new Error(String(reason));
  send({ type: 'log', line: { level: 'error', message: truncateText(`unhandled rejection: ${e.stack ?? e.message}`), at: Date.now() }, uncaught: true });
});
process.on('uncaughtException', (err) => {
  send({ type: 'log', line: { level: 'error', message: truncateText(`uncaught exception: ${err?.stack ?? err?.message ?? String(err)}`), at: Date.now() }, uncaught: true });
});

if (!process.send) {
  process.stderr.write('controller-lab controller host: start me with an IPC channel (child_process.fork)\n');
  exitProcess(2);
}
