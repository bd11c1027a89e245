import { after, before } from 'node:test';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { call } from '../server/httpClient.ts';

// The workload simulation on a fake clock behind the HTTP server, started before the enclosing
// suite's tests and stopped after them: tests talk HTTP as a client would, and simulated time
// moves only while they wait for something.

export interface HttpWorkloadLab {
  readonly cluster: SimCluster;
  readonly server: SimServerHandle;
  readonly clock: FakeClock;
  /** GETs `path` until `done` holds for its JSON, moving the clock 10 ms at a time (fails after `limitMs` simulated). */
  until<T>(path: string, done: (json: T) => boolean, limitMs?: number): Promise<T>;
}

export function httpWorkloadLab(): HttpWorkloadLab {
  const lab = {} as { cluster: SimCluster; server: SimServerHandle; clock: FakeClock } & Pick<HttpWorkloadLab, 'until'>;
  before(async () => {
    lab.clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    lab.cluster = createSimCluster({ clock: lab.clock });
    lab.cluster.enableWorkloads({ podStartDelayMs: 100 });
    lab.server = await startSimServer(lab.cluster, { insecureHttp: true });
  });
  after(async () => {
    await lab.server.stop();
    await lab.cluster.close();
  });
  lab.until = async <T>(path: string, done: (json: T) => boolean, limitMs = 30_000): Promise<T> => {
    let last: T | undefined;
    for (let t = 0; t <= limitMs; t += 10) {
      last = (await call(lab.server, 'GET', path)).json() as T;
      if (done(last)) return last;
      lab.clock.step(10);
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error(`${path}: not done after ${limitMs} ms of simulated time; last: ${JSON.stringify(last).slice(0, 2000)}`);
  };
  return lab;
}
