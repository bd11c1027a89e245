// `node bench/admission.bench.ts`: what admission webhooks cost a write. Sequential ConfigMap
// creates over HTTP against the sim, with no webhook configured, with one validating webhook, and
// with a mutating (JSON patch) plus a validating webhook, both served over HTTPS in this process.
// Prints a markdown table: median and p95 latency per create, creates per second.
import { createServer } from 'node:https';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimCluster } from '../src/sim/simCluster.ts';
import { startSimServer } from '../src/sim/server/simServer.ts';
import { generateCa, generateServingCert } from '../src/sim/tls/certificates.ts';

const COUNT = Number(process.argv.find((a) => a.startsWith('--count='))?.slice('--count='.length) ?? (process.argv.includes('--quick') ? 100 : 400));

function post(url: string, token: string, path: string, body: unknown): Promise<number> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, url), { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(data);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const ca = await generateCa();
  const leaf = await generateServingCert(ca);
  const hooks = createServer({ key: leaf.keyPem, cert: leaf.certPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string } };
      const patch = req.url?.startsWith('/mutate') ? { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/data/stamped', value: 'yes' }])).toString('base64') } : {};
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, ...patch } }));
    });
  });
  let connections = 0;
  hooks.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  const hookUrl = `https://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
  const caBundle = Buffer.from(ca.certPem).toString('base64');
  const cluster = createSimCluster();
  const sim = await startSimServer(cluster, { insecureHttp: true });
  const hook = (name: string, path: string) => ({
    name, clientConfig: { url: `${hookUrl}${path}`, caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  });
  const configure = (kind: string, name: string, path: string) => post(sim.url, sim.token, `/apis/admissionregistration.k8s.io/v1/${kind.toLowerCase()}s`, {
    apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks: [hook(`${name}.bench.example.com`, path)],
  });

  const rows: string[] = [];
  const run = async (label: string): Promise<void> => {
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; i < COUNT; i++) {
      const t = performance.now();
      const code = await post(sim.url, sim.token, '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${label.replace(/\W+/g, '-')}-${i}` }, data: { a: '1' } });
      if (code !== 201) throw new Error(`${label}: create answered ${code}`);
      times.push(performance.now() - t);
    }
    const total = performance.now() - started;
    times.sort((a, b) => a - b);
    rows.push(`| ${label} | ${percentile(times, 0.5).toFixed(2)} | ${percentile(times, 0.95).toFixed(2)} | ${Math.round((COUNT * 1000) / total)} |`);
  };

  await run('no webhooks');
  await configure('ValidatingWebhookConfiguration', 'validate', '/validate');
  await run('1 validating webhook');
  await configure('MutatingWebhookConfiguration', 'mutate', '/mutate');
  await run('1 mutating + 1 validating webhook');

  console.log(`${COUNT} sequential ConfigMap creates over HTTP; webhooks over HTTPS in the same process\n`);
  console.log('| configuration | median ms | p95 ms | creates/s |');
  console.log('| --- | --: | --: | --: |');
  for (const r of rows) console.log(r);
  console.log(`\nTLS connections to the webhook server: ${connections}`);
  await sim.stop();
  await cluster.close();
  hooks.closeAllConnections();
  hooks.close();
}

await main();
