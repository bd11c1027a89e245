// The sim over HTTPS under a storm of clients: many new TLS connections at once do not stall the
// event loop (handshakes are admitted a few at a time), a client that connects and says nothing
// holds no one up, nor does one that never reads its LIST; identical big LISTs running together
// are answered whole and alike from one shared body, and nothing of a list is kept once its
// clients finished or left.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { sharedListBodyCount, sharedListBytesHeld } from '../../../../src/sim/server/sharedListBodies.ts';
import { healthzOnNewConnection } from './freshConnection.ts';
import { call } from './httpClient.ts';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const LIST = '/api/v1/namespaces/default/configmaps';
const OBJECTS = 3000;

let cluster: SimCluster;
let server: SimServerHandle;

before(async () => {
  cluster = createSimCluster();
  server = await startSimServer(cluster, { onInternalError: () => {} });
  const filler = 'x'.repeat(900);
  for (let i = 0; i < OBJECTS; i++) cluster.create(CONFIGMAPS, 'default', { metadata: { name: `cm-${String(i).padStart(5, '0')}` }, data: { filler } });
  // ~20 MB of list: more than loopback socket buffers hold, so a client that does not read keeps it unfinished.
  cluster.create({ group: '', version: 'v1', resource: 'namespaces' }, '', { metadata: { name: 'big' } });
  const big = 'y'.repeat(8000);
  for (let i = 0; i < 2500; i++) cluster.create(CONFIGMAPS, 'big', { metadata: { name: `big-${i}` }, data: { big } });
});

after(async () => {
  await server.stop();
  await cluster.close();
});

/** The most CPU this thread spends from now until the event loop has not come round for 5 ms; stop() tells it. */
function longestLoopTurnCpu(): { stop(): number } {
  let longest = 0;
  let last = process.threadCpuUsage();
  const tick = setInterval(() => {
    const now = process.threadCpuUsage();
    longest = Math.max(longest, (now.user + now.system - last.user - last.system) / 1000);
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(tick);
      return longest;
    },
  };
}

/**
 * `count` clients in another process, each on a new connection: all connect, then (told to go) all
 * start TLS at once and GET `path`, as clients retrying together do. Meanwhile this process's
 * event loop is held for a moment, so every ClientHello is waiting when it comes round: without a
 * bound, all of them would be handshaken in that one turn. Resolves with the statuses and the most
 * CPU one turn of the loop took after the hold.
 */
async function clientsAtOnce(count: number, path: string): Promise<{ statuses: number[]; longestTurnMs: number }> {
  const script = `
    const tls = require('node:tls');
    const net = require('node:net');
    const fs = require('node:fs');
    const [port, token, ca, count, path, sentFlag] = JSON.parse(process.argv[1]);
    const statuses = [];
    const raws = [];
    for (let i = 0; i < count; i++) {
      const raw = net.connect(port, '127.0.0.1', () => { raws.push(raw); if (raws.length === count) console.log('ready'); });
      raw.on('error', () => {});
    }
    const sentAll = () => raws.every((raw) => raw.bytesWritten > 0) ? fs.writeFileSync(sentFlag, 'sent') : setTimeout(sentAll, 5);
    process.stdin.once('data', () => (setTimeout(sentAll, 5), raws.forEach((socket) => {
      const s = tls.connect({ socket, ca, servername: 'localhost' }, () => {
        s.write('GET ' + path + ' HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAuthorization: Bearer ' + token + '\\r\\nConnection: close\\r\\n\\r\\n');
      });
      let head = '';
      s.on('data', (d) => { head += d.toString('latin1').slice(0, 64); });
      s.on('close', () => { statuses.push(Number(head.split(' ')[1] || -1)); if (statuses.length === count) console.log(JSON.stringify(statuses)); });
      s.on('error', () => {});
    })));`;
  const sentFlag = join(await mkdtemp(join(tmpdir(), 'storm-')), 'sent');
  const child = spawn(process.execPath, ['-e', script, JSON.stringify([server.port, server.token, server.caPem, count, path, sentFlag])], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  await eventually('the clients to connect', () => out.includes('ready'), 30_000);
  child.stdin.end('go\n');
  // The loop is held until every client has sent its ClientHello.
  const holdUntil = performance.now() + 20_000;
  while (!existsSync(sentFlag) && performance.now() < holdUntil) {
    // busy: nothing of this process runs meanwhile
  }
  const turns = longestLoopTurnCpu();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await exited;
  const longestTurnMs = turns.stop();
  const last = out.trim().split('\n').at(-1) ?? '';
  return { statuses: last.startsWith('[') ? (JSON.parse(last) as number[]) : [], longestTurnMs };
}

/** A TLS connection that sends a GET of `path` and then never reads. */
function neverReads(path: string): Promise<{ destroy(): void }> {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ port: server.port, host: '127.0.0.1', ca: server.caPem, servername: 'localhost' }, () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\n\r\n`);
      s.pause();
      resolve(s);
    });
    s.on('error', reject);
  });
}

/** A TLS connection that sends a LIST and reads at most `bytes` of the answer, then leaves. */
function listAndLeave(bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ port: server.port, host: '127.0.0.1', ca: server.caPem, servername: 'localhost' }, () => {
      s.write(`GET ${LIST} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\n\r\n`);
    });
    let got = 0;
    s.on('data', (d: Buffer) => {
      got += d.length;
      if (got >= bytes) {
        s.destroy();
        resolve();
      }
    });
    s.on('error', reject);
  });
}

async function eventually(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a storm of clients over HTTPS', () => {
  it('500 clients connecting at once are all answered, without the event loop running 50 ms of CPU in one go', async () => {
    const { statuses, longestTurnMs } = await clientsAtOnce(500, '/healthz');
    assert.equal(statuses.filter((s) => s === 200).length, 500, `statuses: ${statuses.filter((s) => s !== 200).join(' ')}`);
    assert.ok(longestTurnMs < 50, `the loop ran ${longestTurnMs.toFixed(1)} ms of CPU without a break`);
  });

  it('clients that connect and say nothing do not hold up the handshakes of others', async () => {
    const silent: Socket[] = await Promise.all(Array.from({ length: 40 }, () => new Promise<Socket>((resolve) => {
      const s = tcpConnect(server.port, '127.0.0.1', () => resolve(s));
      s.on('error', () => {});
    })));
    try {
      const started = Date.now();
      const health = await call(server, 'GET', '/healthz');
      assert.equal(health.status, 200);
      assert.ok(Date.now() - started < 10_000, 'answered long before the silent connections time out');
    } finally {
      for (const s of silent) s.destroy();
    }
  });

  it('a thousand connections that never start TLS hold up no one: a new client is answered within a second', { timeout: 60_000 }, async () => {
    const silent: Socket[] = [];
    for (let batch = 0; batch < 10; batch++) {
      silent.push(...(await Promise.all(Array.from({ length: 100 }, () => new Promise<Socket>((resolve) => {
        const s = tcpConnect(server.port, '127.0.0.1', () => resolve(s));
        s.on('error', () => {});
      })))));
    }
    try {
      const started = Date.now();
      const head = await healthzOnNewConnection(server);
      assert.equal(head, 'HTTP/1.1 200 OK');
      const tookMs = Date.now() - started;
      assert.ok(tookMs < 1000, `answered in ${tookMs} ms behind ${silent.length} silent connections`);
    } finally {
      for (const s of silent) s.destroy();
    }
  });

  it('identical LISTs running together are answered whole and alike, and nothing of them is kept afterwards', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => call(server, 'GET', LIST)));
    const bodies = new Set(answers.map((a) => a.body));
    assert.deepEqual(answers.map((a) => a.status), answers.map(() => 200));
    assert.equal(bodies.size, 1, 'the same list at the same resourceVersion');
    const names = answers[0]!.json().items.map((i: { metadata: { name: string } }) => i.metadata.name);
    assert.deepEqual(names, cluster.list(CONFIGMAPS, { namespace: 'default' }).items.map((i) => i.object.metadata.name));
    await eventually('the shared list body to be dropped', () => sharedListBodyCount() === 0);
  });

  it('clients that never read their big LISTs hold up no one else\'s', { timeout: 30_000 }, async () => {
    const path = '/api/v1/namespaces/big/configmaps';
    const stalled = await Promise.all(Array.from({ length: 6 }, () => neverReads(path)));
    try {
      const list = await call(server, 'GET', path);
      assert.equal(list.status, 200);
      assert.equal(list.json().items.length, cluster.list(CONFIGMAPS, { namespace: 'big' }).items.length);
    } finally {
      for (const s of stalled) s.destroy();
    }
  });

  it('a big LIST read by one client holds a page or so of it at a time, not what was already sent', { timeout: 30_000 }, async () => {
    const s = tlsConnect({ port: server.port, host: '127.0.0.1', ca: server.caPem, servername: 'localhost' }, () => {
      s.write(`GET /api/v1/namespaces/big/configmaps HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\n\r\n`);
    });
    try {
      let got = 0;
      await new Promise<void>((resolve, reject) => {
        s.on('data', (d: Buffer) => {
          got += d.length;
          if (got >= 10_000_000) {
            s.pause();
            resolve();
          }
        });
        s.on('error', reject);
      });
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(sharedListBytesHeld() < 1_000_000, `${sharedListBytesHeld()} bytes held after 10 MB sent`);
    } finally {
      s.destroy();
    }
  });

  it('clients that leave in the middle of a LIST leave nothing behind, and their seats serve others', async () => {
    await Promise.all(Array.from({ length: 8 }, () => listAndLeave(100_000)));
    await eventually('the shared list body to be dropped', () => sharedListBodyCount() === 0);
    const list = await call(server, 'GET', LIST);
    assert.equal(list.status, 200);
    assert.ok(list.json().items.length > OBJECTS);
  });
});
