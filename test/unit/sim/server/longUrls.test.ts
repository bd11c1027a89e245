// URLs past Node's 16 KB of headers: served up to the 1 MiB kube-apiserver's Go server takes
// (a label selector with thousands of values), then refused with a Status; a request that is not
// HTTP gets a Status too, never an empty answer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();

/** Sends raw bytes, resolves with everything the server answered before closing. */
function raw(text: string): Promise<string> {
  const url = new URL(suite.server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8').on('data', (d: string) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function statusOf(answer: string): { code: number; kind: string; message: string } {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: number; kind: string; message: string };
}

describe('long and malformed request lines', () => {
  it('serves a 100 KB label selector', async () => {
    const values = Array.from({ length: 20_000 }, (_, i) => `value-${i}`).join(',');
    const path = `/api/v1/namespaces/default/configmaps?labelSelector=${encodeURIComponent(`app in (${values})`)}`;
    assert.ok(path.length > 100_000);
    const r = await call(suite.server, 'GET', path);
    assert.equal(r.status, 200, r.body.slice(0, 200));
    assert.equal(r.json().kind, 'ConfigMapList');
  });

  it('answers a URL past 1 MiB with a 431 Status', async () => {
    const answer = await raw(`GET /api/v1/namespaces?labelSelector=${'a'.repeat(1100 * 1024)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${suite.server.token}\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    const status = statusOf(answer);
    assert.equal(status.kind, 'Status');
    assert.equal(status.code, 431);
    assert.match(status.message, /at most 1048576 bytes/);
  });

  it('answers a request that is not HTTP with a 400 Status', async () => {
    const answer = await raw('NOT HTTP AT ALL\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.equal(statusOf(answer).code, 400);
  });
});
