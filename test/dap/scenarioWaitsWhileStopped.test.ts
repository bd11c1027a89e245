import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { RS_CONTROLLER, launch, startClient } from './dapClient.ts';
import { fileURLToPath } from 'node:url';

// README's walkthrough: stop on the first reconcile of the replicaset example and look around. The
// example's scenario scales `api` to 2 at 2 s, deletes a Pod at 3 s and scales `web` to 1 at 4 s;
// none of that may happen while the debugger is stopped, and all of it once it continues.

const RS_EXAMPLE_SCENARIO = fileURLToPath(new URL('../../examples/replicaset-controller/scenario.yaml', import.meta.url));

function replicas(kubeconfig: string): Record<string, number> {
  const out = execFileSync('kubectl', ['--kubeconfig', kubeconfig, 'get', 'replicasets', '-n', 'default', '-o', 'json'], { encoding: 'utf8', timeout: 20_000 });
  const list = JSON.parse(out) as { items: { metadata: { name: string }; spec: { replicas: number } }[] };
  return Object.fromEntries(list.items.map((rs) => [rs.metadata.name, rs.spec.replicas]));
}

test("the session's scenario waits while the debugger is stopped and goes on when it continues", async () => {
  const dc = await startClient();
  try {
    let kubeconfig = '';
    dc.on('output', (e: DebugProtocol.OutputEvent) => {
      const m = /\(kubeconfig (\S+?)\)/.exec(e.body.output);
      if (m) kubeconfig = m[1] as string;
    });
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { controller: RS_CONTROLLER, scenario: RS_EXAMPLE_SCENARIO, stopOnEntry: true });
    const entry = (await stopped) as DebugProtocol.StoppedEvent;
    assert.equal(entry.body.reason, 'entry');
    assert.ok(kubeconfig, 'the Debug Console names the simulated cluster\'s kubeconfig');
    assert.deepEqual(replicas(kubeconfig), { api: 1, web: 3 });

    // Longer than every step of the scenario (the last is at 4 s).
    await new Promise((r) => setTimeout(r, 5_000));
    assert.deepEqual(replicas(kubeconfig), { api: 1, web: 3 }, 'no scenario step ran while stopped');

    await dc.continueRequest({ threadId: 1 });
    const deadline = Date.now() + 30_000;
    let now = replicas(kubeconfig);
    while (now.web !== 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      now = replicas(kubeconfig);
    }
    assert.deepEqual(now, { api: 2, web: 1 }, 'after continue the scenario ran to its end');
  } finally {
    await dc.stop();
  }
});
