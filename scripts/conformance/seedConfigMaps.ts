// node scripts/conformance/seedConfigMaps.ts --kubeconfig FILE --namespace NS --count N
// Creates the namespace and N small ConfigMaps in it, 16 requests at a time.
import { parseArgs } from 'node:util';
import { loadCluster } from '../../src/kube/index.ts';

const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, namespace: { type: 'string' }, count: { type: 'string' } } });
const count = Number(values.count);
if (!values.kubeconfig || !values.namespace || !(count > 0)) throw new Error('usage: seedConfigMaps.ts --kubeconfig FILE --namespace NS --count N');
const ns = values.namespace;
const cluster = loadCluster({ kubeconfig: values.kubeconfig });
const post = (path: string, body: unknown): Promise<unknown> =>
  cluster.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
let next = 0;
const worker = async (): Promise<void> => {
  while (next < count) {
    const i = next++;
    await post(`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { app: 'sync-speed' } }, data: { index: String(i), note: 'a ConfigMap of about the size a controller watches' } });
  }
};
await Promise.all(Array.from({ length: 16 }, worker));
cluster.close();
