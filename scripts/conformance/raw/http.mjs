// One raw request to an API server with its bearer token, answered as status, headers and body
// (parsed when it is JSON, a watch stream as its list of events).
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';

export function client({ server, token, caFile, caData }) {
  const ca = caFile ? readFileSync(caFile) : Buffer.from(caData, 'base64');
  const agent = new Agent({ keepAlive: true, ca });
  return (method, path, { headers = {}, body } = {}) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const req = request(new URL(path, server), {
        method,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...headers,
        },
        timeout: 30_000,
      });
      req.on('response', (res) => {
        const chunks = [];
        res.on('data', (d) => chunks.push(d));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode, contentType: res.headers['content-type'] ?? '', warning: res.headers.warning, body: parseBody(text) });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
}

function parseBody(text) {
  if (text === '') return '';
  try {
    return JSON.parse(text);
  } catch {
    const lines = text.split('\n').filter(Boolean);
    try {
      return { watchEvents: lines.map((l) => JSON.parse(l)) };
    } catch {
      return text;
    }
  }
}
