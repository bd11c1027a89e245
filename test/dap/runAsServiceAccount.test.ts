import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { RS_CONTROLLER, RS_SCENARIO, launch, startClient } from './dapClient.ts';

// `"runAs"` in a launch configuration: the controller runs as that user, so the simulated cluster
// holds it to RBAC, and the Debug Console says once per informer what it was refused.

test('"runAs" a ServiceAccount without RBAC: the Debug Console names what each informer may not list', async () => {
  const dc = await startClient();
  try {
    const output: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_SCENARIO, stopOnEntry: true, runAs: 'system:serviceaccount:default:replicaset-controller' });
    const refused = (resource: string, group: string) =>
      `informer ${group ? `${resource}.${group}` : resource}: ${group ? `${resource}.${group}` : resource} is forbidden: User "system:serviceaccount:default:replicaset-controller" cannot list resource "${resource}" in API group "${group}" at the cluster scope (403); retrying with backoff\n`;
    const expected = [refused('replicasets', 'apps'), refused('pods', '')];
    for (let end = Date.now() + 30_000; !expected.every((line) => output.includes(line)) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
    for (const line of expected) assert.equal(output.filter((o) => o === line).length, 1, `${line} once in:\n${output.join('')}`);
  } finally {
    await dc.stop();
  }
});
