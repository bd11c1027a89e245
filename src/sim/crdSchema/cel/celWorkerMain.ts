import { evaluate } from '@marcbachmann/cel-js';
import { workerData, type MessagePort } from 'node:worker_threads';
import type { JsonSchema } from '../jsonSchema.ts';
import { evaluateRules } from './ruleEvaluation.ts';
import { PROGRESS_OFFSET, STATE, type RuleJob } from './sandboxProtocol.ts';

// The worker thread validation rules run in: the API server's thread waits for its answer with
// a deadline, so a rule that runs away (a nested loop over long lists, a regex that backtracks)
// costs a bounded wait and a fresh worker, never a hung simulated cluster.

const { port, shared } = workerData as { port: MessagePort; shared: SharedArrayBuffer };
const state = new Int32Array(shared, 0, 2);
const progressBytes = new Uint8Array(shared, PROGRESS_OFFSET);
const encoder = new TextEncoder();

const progress = {
  running(field: string, schemaType: string, rule: string): void {
    const { written } = encoder.encodeInto(JSON.stringify({ field, schemaType, rule }), progressBytes);
    Atomics.store(state, STATE.progressLength, written);
  },
};

const duration = (text: string): unknown => evaluate('duration(d)', { d: text });

const schemas = new Map<number, JsonSchema>();

port.on('message', (job: RuleJob) => {
  let answer;
  try {
    if (job.forgetSchemas) schemas.clear();
    if (job.schema) schemas.set(job.schemaId, job.schema as JsonSchema);
    const schema = schemas.get(job.schemaId);
    if (!schema) throw new Error(`schema ${job.schemaId} was not sent`);
    answer = { causes: evaluateRules(schema, job.obj, job.old, { duration, progress }, job.at) };
  } catch (err) {
    answer = { error: (err as Error).message };
  }
  port.postMessage(answer);
  Atomics.store(state, STATE.flag, 1);
  Atomics.notify(state, STATE.flag);
});

// Ready: the first wait of the API server ends here.
Atomics.store(state, STATE.flag, 1);
Atomics.notify(state, STATE.flag);
