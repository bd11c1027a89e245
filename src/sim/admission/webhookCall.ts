import { Agent, request } from 'node:https';
import { posix } from 'node:path';
import type { SimObjects } from '../simObjects.ts';
import { serviceEndpoint } from './serviceEndpoint.ts';
import type { Webhook } from './webhookConfigurations.ts';

// One POST of an AdmissionReview to a webhook, as kube-apiserver's webhook client makes it: HTTPS
// only, the server's certificate verified against the webhook's caBundle (the system's roots
// without one), `?timeout=` telling the webhook its deadline, and the whole call bounded by
// timeoutSeconds. Never throws anything but WebhookCallError, whose message reads like the API
// server's (`Post "https://…": …`), so a failing webhook costs at most its timeout and the sim
// keeps serving other requests meanwhile.

export class WebhookCallError extends Error {}

/** Answers larger than this are refused (a webhook answering without end must not fill the sim's memory). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** Connections to a webhook are kept alive between calls, as Go's client keeps them (idle ones do not hold the process). */
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** The webhook's address: its URL, or its Service resolved through the cluster's Endpoints. */
function target(cluster: SimObjects, webhook: Webhook): { url: URL; shown: string; servername?: string } {
  if (webhook.url !== undefined) {
    let url: URL;
    try {
      url = new URL(webhook.url);
    } catch {
      throw new WebhookCallError(`parse "${webhook.url}": invalid URL`);
    }
    if (url.protocol !== 'https:') throw new WebhookCallError(`webhook URL "${webhook.url}" does not use the https scheme`);
    // The API server's client cleans the path (envtest writes `https://host:port//path`).
    url.pathname = cleanPath(url.pathname);
    return { url, shown: url.toString() };
  }
  if (webhook.service) {
    const { name, namespace, port, path } = webhook.service;
    const shown = `https://${name}.${namespace}.svc:${port}${cleanPath(path)}`;
    let endpoint;
    try {
      endpoint = serviceEndpoint(cluster, webhook.service);
    } catch (err) {
      throw new WebhookCallError(`Post "${shown}?timeout=${webhook.timeoutSeconds}s": ${err instanceof Error ? err.message : String(err)}`);
    }
    const url = new URL(`https://${endpoint.host}:${endpoint.port}`);
    url.pathname = cleanPath(path);
    return { url, shown, servername: `${name}.${namespace}.svc` };
  }
  throw new WebhookCallError('the webhook has neither a url nor a service in its clientConfig');
}

function cleanPath(path: string): string {
  const cleaned = posix.normalize(`/${path}`);
  return cleaned.length > 1 && cleaned.endsWith('/') ? cleaned.slice(0, -1) : cleaned;
}

/** Go's wording for the usual failures, which controller authors search for. */
function describe(err: NodeJS.ErrnoException, url: URL): string {
  const hostPort = `${url.hostname}:${url.port || '443'}`;
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${hostPort}: connect: connection refused`;
    case 'ECONNRESET':
      return `read tcp ${hostPort}: connection reset by peer`;
    case 'ENOTFOUND':
      return `dial tcp: lookup ${url.hostname}: no such host`;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_SIGNATURE_FAILURE':
      return `tls: failed to verify certificate: x509: certificate signed by unknown authority (${err.message})`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: ${err.message}`;
    default:
      return err.message || String(err.code);
  }
}

/** POSTs the review; answers the parsed JSON body of a 2xx answer. */
export function callWebhook(cluster: SimObjects, webhook: Webhook, review: unknown): Promise<unknown> {
  let where: ReturnType<typeof target>;
  try {
    where = target(cluster, webhook);
  } catch (err) {
    return Promise.reject(err instanceof WebhookCallError ? err : new WebhookCallError(err instanceof Error ? err.message : String(err)));
  }
  const { url, shown } = where;
  url.search = `?timeout=${webhook.timeoutSeconds}s`;
  const post = `Post "${shown}?timeout=${webhook.timeoutSeconds}s"`;
  const body = Buffer.from(JSON.stringify(review));
  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(new WebhookCallError(why));
    };
    const req = request(url, {
      method: 'POST',
      agent,
      // Any certificate of the bundle is a trust anchor, as in Go's root pools: envtest's caBundle is
      // the serving certificate itself, not the CA that issued it.
      ...(webhook.caPem ? { ca: webhook.caPem, allowPartialTrustChain: true } : {}),
      ...(where.servername ? { servername: where.servername } : {}),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, */*', 'Content-Length': body.length },
    });
    const timer = setTimeout(() => fail(`${post}: context deadline exceeded`), webhook.timeoutSeconds * 1000);
    req.on('error', (err: NodeJS.ErrnoException) => fail(`${post}: ${describe(err, url)}`));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) fail(`${post}: the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
        else chunks.push(chunk);
      });
      res.on('error', (err: NodeJS.ErrnoException) => fail(`${post}: ${describe(err, url)}`));
      res.on('end', () => {
        if (settled) return;
        const text = Buffer.concat(chunks).toString('utf8');
        const code = res.statusCode ?? 0;
        if (code < 200 || code > 299) {
          fail(`${post}: an error on the server (${JSON.stringify(text.trim().slice(0, 500))}) has prevented the request from succeeding (code ${code})`);
          return;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (err) {
          fail(`couldn't get version/kind; json parse error: ${err instanceof Error ? err.message : String(err)}`);
          return;
        }
        settled = true;
        clearTimeout(timer);
        resolve(parsed);
      });
    });
    req.end(body);
  });
}
