// A small HTTP(S) client for the server tests: whole responses, and watch streams read line by line.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { SimServerHandle } from '../../../../src/sim/server/simServer.ts';

export interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function send(server: SimServerHandle, method: string, path: string, headers: Record<string, string>) {
  const url = new URL(path, server.url);
  const go = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return go(url, { method, headers, ...(server.caPem ? { ca: server.caPem } : {}) });
}

export function call(
  server: SimServerHandle,
  method: string,
  path: string,
  options: { body?: unknown; contentType?: string; accept?: string; token?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json', ...options.headers };
  const token = options.token === undefined ? server.token : options.token;
  if (token !== null) headers['Authorization'] = `Bearer ${token}`;
  let body: string | Buffer | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] = options.contentType ?? 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = send(server, method, path, headers);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface WatchStream {
  status: number;
  headers: IncomingMessage['headers'];
  lines: string[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  waitForLines(n: number, timeoutMs?: number): Promise<string[]>;
  /** Closes from the client side. */
  close(): void;
}

export function openWatch(server: SimServerHandle, path: string, accept = 'application/json', headers: Record<string, string> = {}): Promise<WatchStream> {
  return new Promise((resolve, reject) => {
    const req = send(server, 'GET', path, { Accept: accept, Authorization: `Bearer ${server.token}`, ...headers });
    req.on('response', (res) => {
      const lines: string[] = [];
      let rest = '';
      const waiters: (() => void)[] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        lines.push(...parts);
        for (const w of waiters.splice(0)) w();
      });
      const ended = new Promise<void>((done) => {
        res.on('end', () => {
          for (const w of waiters.splice(0)) w();
          done();
        });
        res.on('close', () => done());
        res.on('error', () => done());
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        lines,
        ended,
        waitForLines(n, timeoutMs = 5000) {
          return new Promise((ok, fail) => {
            const timer = setTimeout(() => fail(new Error(`only ${lines.length} of ${n} lines: ${lines.join('\n')}`)), timeoutMs);
            const check = () => {
              if (lines.length >= n) {
                clearTimeout(timer);
                ok(lines);
              } else if (res.complete) {
                clearTimeout(timer);
                fail(new Error(`stream ended after ${lines.length} of ${n} lines: ${lines.join('\n')}`));
              } else {
                waiters.push(check);
              }
            };
            check();
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', (err) => reject(err));
    req.end();
  });
}

/**
 * Creates a namespace and waits (as e2e suites do) until the controller manager has added its
 * `kube-root-ca.crt` ConfigMap, so what the test lists next does not depend on timing.
 */
export async function createNamespace(server: SimServerHandle, name: string): Promise<void> {
  const created = await call(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name } } });
  if (created.status !== 201) throw new Error(`creating namespace ${name}: ${created.status} ${created.body}`);
  const deadline = Date.now() + 10_000;
  while ((await call(server, 'GET', `/api/v1/namespaces/${name}/configmaps/kube-root-ca.crt`)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`no kube-root-ca.crt in ${name} after 10 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
