import { after, before } from 'node:test';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';

export interface SuiteServer {
  readonly cluster: SimCluster;
  readonly server: SimServerHandle;
}

/**
 * A simulated cluster on a fake clock, served over plain HTTP, started before the tests of the
 * enclosing suite (or file) and stopped after them. Read its fields inside tests, not before.
 */
export function suiteServer(): SuiteServer {
  const suite = {} as { cluster: SimCluster; server: SimServerHandle };
  before(async () => {
    suite.cluster = createSimCluster({ clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')) });
    suite.server = await startSimServer(suite.cluster, { insecureHttp: true });
  });
  after(async () => {
    await suite.server.stop();
    await suite.cluster.close();
  });
  return suite;
}
