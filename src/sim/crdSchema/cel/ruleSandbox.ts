import { evaluate } from '@marcbachmann/cel-js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Cause } from '../../../shared/apiErrors.ts';
import type { JsonSchema } from '../jsonSchema.ts';
import { PROGRESS_OFFSET, SHARED_BYTES, STATE, type RuleAnswer, type RuleJob, type RunningRule } from './sandboxProtocol.ts';
import { evaluateRules } from './ruleEvaluation.ts';
import { invalidCause } from './validationRule.ts';

// Runs a request's validation rules in a worker thread and waits for the answer synchronously
// (the store validates synchronously) with a deadline. kube-apiserver bounds a rule by a cost
// budget; here the bound is time: a request's rules get RULES_BUDGET_MS, after which the worker
// is stopped and the request refused naming the rule that was running.

export const RULES_BUDGET_MS = 1000;
const STARTUP_MS = 20_000;

// Bundled (dist/*.cjs) the worker is its own bundle next to the caller; from source, the .ts file.
const WORKER_URL = import.meta.url.endsWith('.cjs') ? new URL('./celWorker.cjs', import.meta.url) : new URL('./celWorkerMain.ts', import.meta.url);

interface Sandbox {
  worker: Worker;
  /** Ids of the schemas this worker keeps. */
  sent: Set<number>;
  port: MessagePort;
  state: Int32Array;
  progress: Uint8Array;
}

let sandbox: Sandbox | undefined;
// Schemas go to the worker once, by id: a stored CRD's schema object stays the same until the CRD changes.
const schemaIds = new WeakMap<JsonSchema, number>();
let nextSchemaId = 1;
const SCHEMAS_KEPT = 200;
/** Set when no worker can run here (a bundle without its worker file): rules then run in-thread, unbounded. */
let inThreadOnly = !existsSync(fileURLToPath(WORKER_URL));

function start(): Sandbox {
  const shared = new SharedArrayBuffer(SHARED_BYTES);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_URL, {
    workerData: { port: port2, shared },
    transferList: [port2],
    // A rule that builds huge lists ends the worker, not the process.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
    stdout: false,
    stderr: false,
  });
  worker.unref();
  // A worker that dies (out of memory) is replaced on the next request; a late event of an old one changes nothing.
  const forget = (): void => {
    if (sandbox?.worker === worker) stop();
  };
  worker.on('error', forget);
  worker.on('exit', forget);
  port1.unref();
  const state = new Int32Array(shared, 0, 2);
  if (Atomics.wait(state, STATE.flag, 0, STARTUP_MS) === 'timed-out') {
    void worker.terminate();
    throw new Error('the validation rule worker did not start');
  }
  return { worker, sent: new Set(), port: port1, state, progress: new Uint8Array(shared, PROGRESS_OFFSET) };
}

function stop(): void {
  const current = sandbox;
  sandbox = undefined;
  if (current) {
    current.port.close();
    void current.worker.terminate();
  }
}

/**
 * The causes `obj` fails, evaluating `schema`'s rules in the worker within `budgetMs`; `at` names
 * a value checked on its own (a schema's default).
 */
export function runRules(schema: JsonSchema, obj: unknown, old: unknown, at?: string, budgetMs = RULES_BUDGET_MS): Cause[] {
  if (!inThreadOnly && !sandbox) {
    try {
      sandbox = start();
    } catch {
      inThreadOnly = true;
    }
  }
  if (inThreadOnly || !sandbox) return evaluateRules(schema, obj, old, { duration: (d) => evaluate('duration(d)', { d }) }, at);
  const { port, state, sent } = sandbox;
  let schemaId = schemaIds.get(schema);
  if (schemaId === undefined) schemaIds.set(schema, (schemaId = nextSchemaId++));
  const job: RuleJob = { schemaId, obj, old, ...(at === undefined ? {} : { at }) };
  if (!sent.has(schemaId)) {
    if (sent.size >= SCHEMAS_KEPT) {
      job.forgetSchemas = true;
      sent.clear();
    }
    job.schema = schema;
    sent.add(schemaId);
  }
  Atomics.store(state, STATE.flag, 0);
  Atomics.store(state, STATE.progressLength, 0);
  port.postMessage(job);
  if (Atomics.wait(state, STATE.flag, 0, budgetMs) === 'timed-out') return timedOut();
  const message = receiveMessageOnPort(port)?.message as RuleAnswer | undefined;
  if (!message) return [];
  if ('error' in message) throw new Error(`evaluating validation rules: ${message.error}`);
  return message.causes;
}

/** The request is refused at the rule that was running when time ran out, as an exceeded cost limit. */
function timedOut(): Cause[] {
  const { state, progress } = sandbox!;
  const length = Atomics.load(state, STATE.progressLength);
  let running: RunningRule | undefined;
  try {
    running = JSON.parse(new TextDecoder().decode(progress.slice(0, length))) as RunningRule;
  } catch {
    running = undefined;
  }
  stop();
  if (!running) return [invalidCause('<nil>', 'object', 'validation failed due to running out of cost budget, no further validation rules will be run')];
  return [invalidCause(running.field, running.schemaType, `call cost exceeds limit for rule: ${running.rule.trim()}`)];
}
