import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { ask, askUntil, launch, startClient } from './dapClient.ts';
import { writeGoProgram } from '../unit/runtime/support/goPrograms.ts';

// "Why (not)?" over DAP with the real adapter: `why …` typed in the Debug Console, and the custom
// request the VS Code commands send, answer from the fates the controller's process reported, for a
// TypeScript controller and for its Go port (test/fixtures/whyNot: a predicate filters a label
// change and a paused Deployment, a ConfigMap maps to nothing, Secrets are not watched at all).

const FIXTURE = (name: string) => fileURLToPath(new URL(`../fixtures/whyNot/${name}`, import.meta.url));
const SCENARIO = FIXTURE('scenario.yaml');

async function answersWhy(dc: DebugClient, predicates: { generation: string; paused: string }): Promise<void> {
  // The paused Deployment's scale-up: the second predicate said no.
  const api = await askUntil(dc, 'why Deployment default/api', new RegExp(`by predicate ${predicates.paused}`));
  assert.match(api, /^Why \(not\)\? Deployment default\/api$/m);
  assert.match(api, new RegExp(`^ {4}Filtered\\? yes \\(For\\), by predicate ${predicates.paused}: it returned false, so nothing was enqueued$`, 'm'), api);
  // Its label change before: the first predicate said no.
  assert.match(api, new RegExp(`^ {4}Filtered\\? yes \\(For\\), by predicate ${predicates.generation}: `, 'm'), api);
  // Its creation went through, and was reconciled.
  assert.match(api, /^ADDED rv \d+:\n {2}app-config: reconciled \(#\d+\)$/m, api);
  assert.match(api, /^ {4}Mapped to\? Deployment default\/api \(For\)$/m, api);

  // Without a kind: the controller's For kind.
  const web = await ask(dc, 'why default/web');
  assert.match(web, /^Why \(not\)\? Deployment default\/web$/m);

  const unrelated = await askUntil(dc, 'why ConfigMap default/unrelated', /^MODIFIED/m);
  assert.match(unrelated, /^ {2}app-config: not reconciled$/m, unrelated);
  assert.match(unrelated, /^ {4}Mapped to\? no request \(Owns\): it has no controller ownerReference to a Deployment$/m, unrelated);
  assert.match(unrelated, /^ {4}Mapped to\? no request \(Watches\): the map function returned no request$/m, unrelated);

  const settings = await ask(dc, 'why ConfigMap default/app-settings');
  assert.match(settings, /^ {4}Mapped to\? Deployment default\/web \(Watches\)$/m, settings);

  const secret = await ask(dc, 'why Secret default/anything');
  assert.match(secret, /^ {4}Watched\? no, app-config does not watch Secret at all \(For Deployment; Owns ConfigMap; Watches ConfigMap\)$/m, secret);

  // The custom request answers the same, with the answer's structure.
  const custom = (await dc.customRequest('controllerLab.why', { kind: 'Deployment', key: 'default/api' })).body as { answer: { changes: { controllers: { verdict: string }[] }[] }; text: string };
  assert.equal(custom.text, await ask(dc, 'why Deployment default/api'));
  assert.equal(custom.answer.changes.at(-1)?.controllers[0]?.verdict, 'not reconciled');

  // Not a why question: still a JavaScript expression.
  assert.equal(await ask(dc, 'typeof why'), '"undefined"');
}

test('why (not)? in the Debug Console of a TypeScript controller', { timeout: 180_000 }, async () => {
  const dc = await startClient();
  try {
    const output: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
    await launch(dc, { controller: FIXTURE('controller.ts'), scenario: SCENARIO });
    await answersWhy(dc, { generation: 'GenerationChangedPredicate', paused: 'NotPaused' });
    // The console says once that it answers why.
    assert.equal(output.filter((o) => o.startsWith('Type `why NAMESPACE/NAME`')).length, 1, output.join(''));
  } finally {
    await dc.stop();
  }
});

test('why (not)? in the Debug Console of a Go controller names its predicates as the builder registered them', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(readFileSync(FIXTURE('main.go'), 'utf8'));
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  try {
    await launch(dc, { program: program.dir, scenario: SCENARIO });
    await answersWhy(dc, { generation: 'predicate\\.GenerationChangedPredicate', paused: 'main\\.notPaused' });
  } finally {
    await dc.stop();
    program.dispose();
  }
});

/** Run as a ServiceAccount without RBAC: every informer is refused, and why says so. */
async function answersForbidden(dc: DebugClient): Promise<void> {
  const text = await askUntil(dc, 'why Deployment default/web', /forbidden by RBAC/);
  assert.match(text, /^ {4}Informer allowed\? no, forbidden by RBAC: .*cannot (?:list|watch) resource \\?"deployments\\?" in API group \\?"apps\\?"/m, text);
  assert.match(text, /^ {4}Received\? no, its informer may not list or watch them$/m, text);
}

const NOBODY = 'system:serviceaccount:default:nobody';

test('why (not)? names the RBAC refusal of a TypeScript controller\'s informer', { timeout: 180_000 }, async () => {
  const dc = await startClient();
  try {
    await launch(dc, { controller: FIXTURE('controller.ts'), scenario: SCENARIO, runAs: NOBODY });
    await answersForbidden(dc);
  } finally {
    await dc.stop();
  }
});

test('why (not)? names the RBAC refusal of a Go controller\'s informer, as its informer is answered', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(readFileSync(FIXTURE('main.go'), 'utf8'));
  const dc = await startClient();
  dc.defaultTimeout = 180_000;
  try {
    await launch(dc, { program: program.dir, scenario: SCENARIO, runAs: NOBODY });
    await answersForbidden(dc);
  } finally {
    await dc.stop();
    program.dispose();
  }
});
