import type { SimClusterApi } from '../../sim/index.ts';

// A few objects so a fresh simulated cluster has something to show: ConfigMaps in two namespaces,
// a Deployment, and a Secret (whose values the views redact).

export function seedSampleObjects(sim: SimClusterApi): void {
  const core = { group: '', version: 'v1' };
  sim.create({ ...core, resource: 'namespaces' }, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } });
  for (const [namespace, name, data] of [
    ['default', 'app-config', { LOG_LEVEL: 'info', FEATURE_FLAGS: 'checkout,search' }],
    ['default', 'web-nginx', { 'nginx.conf': 'server { listen 8080; location / { proxy_pass http://web:8080; } }' }],
    ['demo', 'cart-settings', { maxItems: '50', currency: 'EUR' }],
    ['demo', 'payments', { provider: 'sandbox', retries: '3' }],
  ] as const) {
    sim.create({ ...core, resource: 'configmaps' }, namespace, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: { app: name } }, data: { ...data } });
  }
  sim.create({ ...core, resource: 'secrets' }, 'demo', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'payments-api', namespace: 'demo' },
    type: 'Opaque',
    data: { apiKey: Buffer.from('sk_test_4242424242').toString('base64') },
  });
  sim.create({ group: 'apps', version: 'v1', resource: 'deployments' }, 'default', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    },
  });
}
