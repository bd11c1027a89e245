// Writing answers. Bodies are JSON strings built once (often the store's cached serialization), sent
// with an exact Content-Length so keep-alive connections need no chunking for ordinary requests.
import type { ServerResponse } from 'node:http';
import type { Status } from '../../shared/k8s.ts';

export const JSON_CONTENT_TYPE = 'application/json';

export function sendJson(res: ServerResponse, code: number, json: string, contentType: string = JSON_CONTENT_TYPE): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(code, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-cache, private',
  });
  res.end(json);
}

export function sendStatus(res: ServerResponse, status: Status, extraHeaders?: Record<string, string>): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  if (extraHeaders) for (const [k, v] of Object.entries(extraHeaders)) res.setHeader(k, v);
  sendJson(res, status.code, JSON.stringify(status));
}

export function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'X-Content-Type-Options': 'nosniff' });
  res.end(text);
}
