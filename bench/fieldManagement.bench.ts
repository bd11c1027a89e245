// `node bench/fieldManagement.bench.ts`: writes per CPU-second through the simulated cluster's store
// (in process, no HTTP), where every write now keeps managedFields: creates, merge patches and
// server-side applies of ConfigMaps and Deployments. SIM_SRC=/path/to/src compares another checkout.
import { pathToFileURL } from 'node:url';
import type { createSimCluster as createSimClusterType } from '../src/sim/simCluster.ts';

const src = process.env.SIM_SRC ?? new URL('../src', import.meta.url).pathname;
const { createSimCluster } = await import(pathToFileURL(`${src}/sim/simCluster.ts`).href) as { createSimCluster: typeof createSimClusterType };

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const DEPLOY = { group: 'apps', version: 'v1', resource: 'deployments' };
const N = Number(process.env.N ?? 3000);

const deployment = (name: string, image: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: { app: name } },
  spec: {
    replicas: 2, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image, ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }, { name: 'side', image: 'busybox' }] } },
  },
});

function rate(label: string, fn: (i: number) => void): string {
  for (let i = 0; i < 200; i++) fn(-1 - i); // warm up
  // CPU time of this process, not wall time: the figure holds on a machine shared with other work.
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) fn(i);
  const used = process.cpuUsage(start);
  const perSecond = Math.round(N / ((used.user + used.system) / 1e6));
  return `| ${label} | ${perSecond.toLocaleString('en')} |`;
}

const cluster = createSimCluster({ watchCacheSize: 1000 });
const ctx = { fieldManager: 'bench' };
const rows = [
  rate('create ConfigMap', (i) => { cluster.create(CM, 'default', { metadata: { name: `cm${i}`, labels: { app: 'x' } }, data: { a: '1', b: '2' } }, ctx); }),
  rate('merge-patch ConfigMap', (i) => { cluster.patch(CM, 'default', `cm${i}`, 'merge', { data: { a: `v${i}` } }, undefined, ctx); }),
  rate('create Deployment', (i) => { cluster.create(DEPLOY, 'default', deployment(`d${i}`, 'nginx:1'), ctx); }),
  rate('merge-patch Deployment image', (i) => { cluster.patch(DEPLOY, 'default', `d${i}`, 'strategic', { spec: { template: { spec: { containers: [{ name: 'web', image: `nginx:${i}` }] } } } }, undefined, ctx); }),
  rate('apply Deployment (changed image)', (i) => { cluster.patch(DEPLOY, 'default', `d${i}`, 'apply', deployment(`d${i}`, `nginx:a${i}`), undefined, { fieldManager: 'applier', force: true }); }),
];
console.log(`writes/s, ${N} objects each (src: ${src})\n\n| write | per second |\n| --- | --: |\n${rows.join('\n')}`);
await cluster.close();
