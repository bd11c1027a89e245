// client-node's informer as a whole process: makeInformer over every namespace's ConfigMaps, exit
// once the object named on the command line shows up.
//
//   node clientNode.mjs KUBECONFIG NAMESPACE/NAME
import * as k8s from '@kubernetes/client-node';

const [kubeconfig, wanted] = process.argv.slice(2);
const kc = new k8s.KubeConfig();
kc.loadFromFile(kubeconfig);
const api = kc.makeApiClient(k8s.CoreV1Api);
const informer = k8s.makeInformer(kc, '/api/v1/configmaps', () => api.listConfigMapForAllNamespaces());
const seen = (obj) => {
  if (`${obj.metadata.namespace}/${obj.metadata.name}` !== wanted) return;
  process.stderr.write(`cached=${informer.list().length}\n`);
  process.exit(0);
};
informer.on('add', seen);
informer.on('update', seen);
informer.on('delete', seen);
informer.on('error', (err) => {
  process.stderr.write(`error: ${err}\n`);
  process.exit(1);
});
await informer.start();
