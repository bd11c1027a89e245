// `node bench/simObjectHeap.bench.ts`: how much of the simulated cluster's heap one
// stored Pod takes (realistic ~5.7 KB Pods with managedFields, created in process), against the
// length of its JSON. N (default 5000) Pods.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createSimCluster } from '../src/sim/simCluster.ts';
import { podJson } from './lib/podJson.ts';

const N = Number(process.env['N'] ?? 5000);
// A full collection before each reading, so the figure is what stays.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const cluster = createSimCluster({});
cluster.create({ group: '', version: 'v1', resource: 'namespaces' }, '', { metadata: { name: 'big' } });
gc();
const before = process.memoryUsage().heapUsed;
let jsonBytes = 0;
for (let i = 0; i < N; i++) {
  const pod = JSON.parse(podJson('big', i, 1, 0)) as { metadata: Record<string, unknown> };
  delete pod.metadata['resourceVersion'];
  delete pod.metadata['uid'];
  delete pod.metadata['creationTimestamp'];
  jsonBytes += cluster.create({ group: '', version: 'v1', resource: 'pods' }, 'big', pod as never, { fieldManager: 'seed' }).json().length;
}
gc();
const perPod = (process.memoryUsage().heapUsed - before) / N;
console.log(`${N} Pods: ${(perPod / 1024).toFixed(1)} KB of heap per stored Pod, its JSON ${(jsonBytes / N / 1024).toFixed(1)} KB (${(perPod / (jsonBytes / N)).toFixed(1)}×)`);
await cluster.close();
