// node scripts/conformance/productSync.ts --kubeconfig FILE --namespace NS
// One sync of the product's informer over a namespace's ConfigMaps, timed from run() to synced
// (process start left out, as for client-go-sync); prints {"items":N,"ms":T}.
import { parseArgs } from 'node:util';
import { createSharedInformer } from '../../src/informer/index.ts';
import { loadCluster } from '../../src/kube/index.ts';
import type { ApiResource } from '../../src/shared/k8s.ts';

const CONFIGMAPS: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };

const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, namespace: { type: 'string' } } });
if (!values.kubeconfig || !values.namespace) throw new Error('usage: productSync.ts --kubeconfig FILE --namespace NS');
const cluster = loadCluster({ kubeconfig: values.kubeconfig });
const informer = createSharedInformer({ name: 'configmaps', listerWatcher: cluster.listerWatcher(CONFIGMAPS, { namespace: values.namespace }) });
const started = performance.now();
informer.run();
if (!(await informer.waitForSync())) throw new Error('the informer stopped before it synced');
const ms = Math.round((performance.now() - started) * 1000) / 1000;
process.stdout.write(`${JSON.stringify({ items: informer.indexer.list().length, ms })}\n`);
informer.stop();
cluster.close();
