import type { KubeObject } from '../../shared/k8s.ts';
import type { SharedIndexInformer } from '../../informer/index.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import type { SimObjects } from '../simObjects.ts';
import type { RequestContext } from '../store/types.ts';
import { isApiError, GVR } from './objectAccess.ts';

// kube-controller-manager's root-ca-cert-publisher: every namespace gets a `kube-root-ca.crt`
// ConfigMap holding the cluster's CA (`ca.crt`), so pods can verify the API server. Deleted or
// edited, it is put back; a namespace that is gone or terminating is left alone.

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export function rootCaConfigMap(caPem: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: ROOT_CA_CONFIGMAP, annotations: { [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION } },
    data: { 'ca.crt': caPem },
  };
}

export function syncRootCa(cluster: SimObjects, configMaps: SharedIndexInformer, caPem: string, namespace: string, ctx: RequestContext): void {
  const cm = configMaps.indexer.get(`${namespace}/${ROOT_CA_CONFIGMAP}`) as Readonly<KubeObject> | undefined;
  const data = { 'ca.crt': caPem };
  if (!cm) {
    try {
      cluster.create(GVR.configmaps, namespace, rootCaConfigMap(caPem), ctx);
    } catch (err) {
      // Gone, terminating, or created meanwhile: nothing to retry.
      if (!isApiError(err, 404) && !isApiError(err, 403) && !isApiError(err, 409)) throw err;
    }
    return;
  }
  if (jsonEqual(cm['data'], data) && cm.metadata.annotations?.[DESCRIPTION_ANNOTATION]) return;
  const next = structuredClone(cm) as KubeObject;
  next['data'] = data;
  next.metadata.annotations = { ...next.metadata.annotations, [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION };
  try {
    cluster.update(GVR.configmaps, namespace, ROOT_CA_CONFIGMAP, next, undefined, ctx);
  } catch (err) {
    if (!isApiError(err, 404)) throw err;
  }
}
