import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { launchSim } from '../../../src/runtime/simLauncher.ts';

// A session's scenario with CRDs (examples/go-guestbook's): the CRDs are served from the start,
// before the controller runs, so a controller-runtime manager watching the custom kind can sync;
// the scenario's objects arrive when it starts, as before.

const SCENARIO = fileURLToPath(new URL('../../../examples/go-guestbook/scenario.yaml', import.meta.url));
const GUESTBOOKS = { group: 'webapp.example.com', version: 'v1', resource: 'guestbooks' };

test('a scenario\'s CRDs are served before the scenario starts; its custom objects come with it', async () => {
  const sim = await launchSim({ scenario: SCENARIO });
  try {
    // Served already (a watch or list of the kind works), nothing created yet.
    assert.deepEqual(sim.cluster.list(GUESTBOOKS, {}).items, []);
    sim.startScenario();
    assert.equal(sim.cluster.get(GUESTBOOKS, 'default', 'hello').object.metadata.name, 'hello');
    assert.equal(sim.scenarioFinished(), false);
  } finally {
    await sim.stop();
  }
});
