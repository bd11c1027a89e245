// Client insight stays bounded whatever callers do: nothing is kept about requests without the
// token, and a flood of distinct user agents keeps only the most recent clients.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { MAX_CLIENTS } from '../../../../src/sim/store/clientInsight.ts';
import { call, openWatch } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();

interface ClientView {
  userAgent: string;
  watches: { open: boolean }[];
}

async function clientsView(): Promise<ClientView[]> {
  const r = await call(suite.server, 'GET', '/controller-lab/admin/clients');
  assert.equal(r.status, 200);
  return r.json().clients;
}

function get(url: URL, headers: Record<string, string>, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `count` GETs, `parallel` at a time on keep-alive connections, each with its own user agent. */
async function flood(count: number, parallel: number, prefix: string, token: string): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: parallel });
  const url = new URL('/api/v1/namespaces/default/configmaps', suite.server.url);
  const codes: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      codes.push(await get(url, { 'User-Agent': `${prefix}-${i}`, Authorization: `Bearer ${token}` }, agent));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  agent.destroy();
  return codes;
}

describe('client insight under floods of callers', () => {
  it('keeps nothing about unauthenticated requests, whatever user agent they claim', async () => {
    const before = await clientsView();
    const codes = await flood(1000, 20, 'intruder', 'not-the-token');
    assert.ok(codes.every((c) => c === 401));
    const after = await clientsView();
    assert.equal(after.filter((c) => c.userAgent.startsWith('intruder-')).length, 0);
    assert.equal(after.length, before.length);
  });

  it(`keeps at most ${MAX_CLIENTS} distinct clients, the most recent ones, and never one with an open watch`, async () => {
    const watch = await openWatch(suite.server, '/api/v1/namespaces/default/configmaps?watch=1');
    const codes = await flood(MAX_CLIENTS * 3, 20, 'crowd', suite.server.token);
    assert.ok(codes.every((c) => c === 200));
    const view = await clientsView();
    assert.ok(view.length <= MAX_CLIENTS, `${view.length} clients kept`);
    assert.ok(view.some((c) => c.userAgent === `crowd-${MAX_CLIENTS * 3 - 1}`), 'the latest client is kept');
    assert.equal(view.filter((c) => c.userAgent === 'crowd-0').length, 0, 'the oldest idle client is evicted');
    assert.ok(view.some((c) => c.watches.some((w) => w.open)), 'the client watching is kept');
    watch.close();
  });
});

describe('refused watches', () => {
  it('are no open watches in the clients view, only errors; a malformed resourceVersion is a 400', async () => {
    const agent = 'refused-watcher';
    const refused = [
      ['watch=1&resourceVersion=abc', 400, 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax'],
      ['watch=1&resourceVersion=99999999', 504, 'Timeout: Too large resource version: 99999999'],
      ['watch=1&labelSelector=a%20b%20c', 400, 'unable to parse requirement'],
    ] as const;
    for (let i = 0; i < 30; i++) {
      for (const [query, code, message] of refused) {
        const r = await call(suite.server, 'GET', `/api/v1/namespaces/default/configmaps?${query}`, { headers: { 'User-Agent': agent } });
        assert.equal(r.status, code, r.body);
        assert.ok(r.json().message.startsWith(message), r.body);
        if (code === 400) assert.equal(r.json().reason, 'BadRequest');
      }
    }
    const client = (await call(suite.server, 'GET', '/controller-lab/admin/clients')).json().clients.find((c: { userAgent: string }) => c.userAgent === agent);
    assert.equal(client.watches.length, 0, `${client.watches.filter((w: { open: boolean }) => w.open).length} refused watches listed as open`);
    assert.equal(client.errors, 90);
  });
});
