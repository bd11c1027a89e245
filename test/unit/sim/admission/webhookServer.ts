// A real HTTPS admission webhook in the test process (its own CA, as envtest makes one), and a
// simulated cluster over HTTP to register it with: what the admission tests talk to.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { generate } from 'selfsigned';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { generateCa } from '../../../../src/sim/tls/certificates.ts';
import { call, type Answer } from '../server/httpClient.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Review = any;

/** What the webhook answers a review with: the `response` (uid is filled in), or a raw reply. */
export type Handler = (review: Review) => Record<string, unknown> | { raw: { status: number; body: string } } | Promise<Record<string, unknown> | { raw: { status: number; body: string } }>;

export interface WebhookServer {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** The CA that signed the server's certificate, base64 as `caBundle` takes it. */
  readonly caBundle: string;
  /** The server's own certificate, base64 (envtest's caBundle is this, not its CA). */
  readonly certBundle: string;
  /** Every review received, in order. */
  readonly reviews: Review[];
  /** Handlers by path ('/mutate', '/validate'…). */
  on(path: string, handler: Handler): void;
  close(): Promise<void>;
}

/** Starts a webhook server whose certificate names 127.0.0.1 and `dnsNames` (for Service references). */
export async function startWebhookServer(dnsNames: string[] = []): Promise<WebhookServer> {
  const ca = await generateCa();
  const now = Date.now();
  const leaf = await generate([{ name: 'commonName', value: 'admission-webhook' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 86_400_000),
    notAfterDate: new Date(now + 86_400_000),
    ca: { key: ca.keyPem, cert: ca.certPem },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, ...dnsNames.map((value) => ({ type: 2 as const, value }))] },
    ],
  });
  const handlers = new Map<string, Handler>();
  const reviews: Review[] = [];
  const server: Server = createServer({ key: leaf.private, cert: leaf.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Review;
      review.path = req.url;
      reviews.push(review);
      const handler = handlers.get((req.url ?? '').split('?')[0] ?? '') ?? (() => ({ allowed: true }));
      void Promise.resolve(handler(review)).then((answer) => {
        if (res.destroyed) return;
        if ('raw' in answer) {
          const raw = answer.raw as { status: number; body: string };
          res.writeHead(raw.status, { 'Content-Type': 'application/json' }).end(raw.body);
          return;
        }
        const body = { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, ...answer } };
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    caBundle: Buffer.from(ca.certPem).toString('base64'),
    certBundle: Buffer.from(leaf.cert).toString('base64'),
    reviews,
    on: (path, handler) => void handlers.set(path, handler),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export interface AdmissionSuite {
  readonly cluster: SimCluster;
  readonly sim: SimServerHandle;
  readonly webhook: WebhookServer;
}

/** A sim over HTTP and a webhook server, for the enclosing file; `dnsNames` as for startWebhookServer. */
export function admissionSuite(dnsNames: string[] = []): AdmissionSuite {
  const suite = {} as { cluster: SimCluster; sim: SimServerHandle; webhook: WebhookServer };
  before(async () => {
    suite.cluster = createSimCluster({ clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')) });
    suite.sim = await startSimServer(suite.cluster, { insecureHttp: true });
    suite.webhook = await startWebhookServer(dnsNames);
  });
  after(async () => {
    await suite.webhook.close();
    await suite.sim.stop();
    await suite.cluster.close();
  });
  return suite;
}

/** One webhook of a configuration, with the usual fields set (override any). */
export function webhook(name: string, url: string, caBundle: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    clientConfig: { url, caBundle },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    failurePolicy: 'Fail',
    ...overrides,
  };
}

/** Creates (or replaces) a Mutating- or ValidatingWebhookConfiguration over HTTP. */
export async function configure(sim: SimServerHandle, type: 'mutating' | 'validating', name: string, webhooks: Record<string, unknown>[]): Promise<void> {
  const kind = type === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
  const path = `/apis/admissionregistration.k8s.io/v1/${kind.toLowerCase()}s`;
  await call(sim, 'DELETE', `${path}/${name}`);
  const r = await call(sim, 'POST', path, { body: { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks } });
  if (r.status !== 201) throw new Error(`configuring ${kind} ${name}: ${r.status} ${r.body}`);
}

/** Removes every webhook configuration, so the next test starts without webhooks. */
export async function unconfigureAll(sim: SimServerHandle): Promise<void> {
  for (const resource of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']) {
    await call(sim, 'DELETE', `/apis/admissionregistration.k8s.io/v1/${resource}`);
  }
}

export function configMap(name: string, data: Record<string, string> = { a: '1' }, labels?: Record<string, string>): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(labels ? { labels } : {}) }, data };
}

/** A JSON patch as a webhook's response carries it. */
export function jsonPatch(ops: unknown[]): { patchType: 'JSONPatch'; patch: string } {
  return { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') };
}

export { call, type Answer };
