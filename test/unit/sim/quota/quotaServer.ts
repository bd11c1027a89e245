import { after, before } from 'node:test';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { call, type Answer } from '../server/httpClient.ts';

// A simulated cluster on the real clock served over plain HTTP, with or without the workload
// simulation (whose quota controller fills in quota status), for the tests of one file.

export interface QuotaServer {
  readonly cluster: SimCluster;
  readonly server: SimServerHandle;
  /** A request as `kubectl` would send it: JSON, the server's admin token. */
  send(method: string, path: string, body?: unknown, contentType?: string): Promise<Answer>;
  /** Polls GET `path` until `done` holds for its body (fails after `limitMs`). */
  until(path: string, done: (object: any) => boolean, limitMs?: number): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export function quotaServer(options: { workloads: boolean }): QuotaServer {
  const suite = {} as { cluster: SimCluster; server: SimServerHandle };
  before(async () => {
    suite.cluster = createSimCluster();
    if (options.workloads) suite.cluster.enableWorkloads({ nodes: 0 });
    suite.server = await startSimServer(suite.cluster, { insecureHttp: true });
  });
  after(async () => {
    await suite.server.stop();
    await suite.cluster.close();
  });
  const send = (method: string, path: string, body?: unknown, contentType?: string): Promise<Answer> =>
    call(suite.server, method, path, body === undefined ? {} : { body, ...(contentType ? { contentType } : {}) });
  return {
    get cluster() {
      return suite.cluster;
    },
    get server() {
      return suite.server;
    },
    send,
    async until(path, done, limitMs = 5000) {
      const end = Date.now() + limitMs;
      let last: unknown;
      for (;;) {
        const answer = await send('GET', path);
        last = answer.json();
        if (answer.status === 200 && done(last)) return last;
        if (Date.now() > end) throw new Error(`${path} never got there; last: ${JSON.stringify(last)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

/** A namespace of its own for one test. */
export async function namespace(q: QuotaServer, name: string): Promise<string> {
  const answer = await q.send('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (answer.status !== 201) throw new Error(`namespace ${name}: ${answer.status} ${answer.body}`);
  return name;
}

export function quota(name: string, hard: Record<string, string>, scopes?: string[]): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard, ...(scopes ? { scopes } : {}) } };
}

/** A pod no node takes (the quota tests are about its usage, not its life). */
export function pod(name: string, resources: { requests?: Record<string, string>; limits?: Record<string, string> } = {}, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox:1', resources }], ...spec } };
}
