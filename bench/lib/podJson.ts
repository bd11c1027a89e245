// Pods as a real cluster returns them (kubectl get pod -o json on a Deployment's Pod, kube 1.3x):
// owner reference to a ReplicaSet, managedFields of kube-controller-manager and the kubelet, a
// projected service-account volume, probes, tolerations, status conditions and container statuses.
// About 5.5 KB of JSON each (a third of it managedFields); a status change (a container restart) rewrites the status as kubelet does.

const IMAGE = 'registry.example.com/shop/web:1.27.3';
const IMAGE_ID = `registry.example.com/shop/web@sha256:${'4f6a9c2e'.repeat(8)}`;

function hex(n: number, width: number): string {
  return (n >>> 0).toString(16).padStart(width, '0').slice(-width);
}

function uid(n: number, salt: number): string {
  return `${hex(n * 2654435761 + salt, 8)}-${hex(n, 4)}-4${hex(salt, 3)}-8${hex(n >>> 4, 3)}-${hex(n * 40503 + salt, 12)}`;
}

function time(second: number): string {
  return new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString().replace('.000Z', 'Z');
}

// What kube-controller-manager and the kubelet own, as the API server records it: keyed by the
// owner's uid and the Pod's IP, so the first is the same for every Pod of a ReplicaSet and the
// second differs from Pod to Pod.
const managedByController = (ownerUid: string): string => JSON.stringify({
  'f:metadata': { 'f:generateName': {}, 'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {}, 'f:tier': {} }, 'f:ownerReferences': { '.': {}, [`k:{"uid":"${ownerUid}"}`]: {} } },
  'f:spec': {
    'f:containers': {
      'k:{"name":"web"}': { '.': {}, 'f:env': { '.': {}, 'k:{"name":"LOG_LEVEL"}': { '.': {}, 'f:name': {}, 'f:value': {} } }, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:livenessProbe': { '.': {}, 'f:httpGet': { '.': {}, 'f:path': {}, 'f:port': {} } }, 'f:name': {}, 'f:ports': { '.': {}, 'k:{"containerPort":8080,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {}, 'f:protocol': {} } }, 'f:readinessProbe': {}, 'f:resources': { '.': {}, 'f:limits': {}, 'f:requests': {} }, 'f:terminationMessagePath': {}, 'f:terminationMessagePolicy': {}, 'f:volumeMounts': {} },
    },
    'f:dnsPolicy': {}, 'f:enableServiceLinks': {}, 'f:restartPolicy': {}, 'f:schedulerName': {}, 'f:securityContext': {}, 'f:terminationGracePeriodSeconds': {}, 'f:volumes': { '.': {}, 'k:{"name":"config"}': { '.': {}, 'f:configMap': {}, 'f:name': {} } },
  },
});

const managedByKubelet = (podIp: string): string => JSON.stringify({
  'f:status': {
    'f:conditions': { 'k:{"type":"ContainersReady"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} }, 'k:{"type":"Initialized"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} }, 'k:{"type":"PodReadyToStartContainers"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} }, 'k:{"type":"Ready"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} } },
    'f:containerStatuses': {}, 'f:hostIP': {}, 'f:hostIPs': {}, 'f:phase': {}, 'f:podIP': {}, 'f:podIPs': { '.': {}, [`k:{"ip":"${podIp}"}`]: { '.': {}, 'f:ip': {} } }, 'f:startTime': {},
  },
});

function condition(type: string, at: string): string {
  return `{"type":"${type}","status":"True","lastProbeTime":null,"lastTransitionTime":"${at}"}`;
}

function templateHash(rs: number): string {
  return hex(rs * 97531, 10).replace(/[0-9]/g, (d) => 'bcdfghjklm'[Number(d)]!);
}

/** The Pod's name as a ReplicaSet makes it: `web-3-bdcf…-x7k2p`. */
export function podName(index: number): string {
  return `web-${index % 40}-${templateHash(index % 40)}-${index.toString(36).padStart(5, '0')}`;
}

/** One Pod; `restarts` changes with each status update (a container restart, as kubelet reports it). */
export function podJson(namespace: string, index: number, rv: number, restarts: number): string {
  const rs = index % 40;
  const hash = templateHash(rs);
  const name = podName(index);
  const created = 1000 + index;
  const started = created + 2 + restarts * 30;
  const node = `node-${index % 25}`;
  const ip = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  const hostIp = `192.168.0.${(index % 25) + 10}`;
  return (
    `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"${name}","generateName":"web-${rs}-${hash}-","namespace":"${namespace}",` +
    `"uid":"${uid(index, 1)}","resourceVersion":"${rv}","creationTimestamp":"${time(created)}",` +
    `"labels":{"app":"web-${rs}","pod-template-hash":"${hash}","tier":"frontend"},` +
    `"annotations":{"kubectl.kubernetes.io/restartedAt":"${time(500)}","prometheus.io/scrape":"true","prometheus.io/port":"9102"},` +
    `"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-${rs}-${hash}","uid":"${uid(rs, 2)}","controller":true,"blockOwnerDeletion":true}],` +
    `"managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"${time(created)}","fieldsType":"FieldsV1","fieldsV1":${managedByController(uid(rs, 2))}},` +
    `{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"${time(started)}","fieldsType":"FieldsV1","fieldsV1":${managedByKubelet(ip)},"subresource":"status"}]},` +
    `"spec":{"volumes":[{"name":"config","configMap":{"name":"web-${rs}-config","defaultMode":420}},` +
    `{"name":"kube-api-access-${hex(index, 5)}","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},` +
    `{"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},` +
    `{"downwardAPI":{"items":[{"path":"namespace","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}],"defaultMode":420}}],` +
    `"containers":[{"name":"web","image":"${IMAGE}","ports":[{"name":"http","containerPort":8080,"protocol":"TCP"},{"name":"metrics","containerPort":9102,"protocol":"TCP"}],` +
    `"env":[{"name":"LOG_LEVEL","value":"info"},{"name":"POD_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}}],` +
    `"resources":{"limits":{"cpu":"500m","memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}},` +
    `"volumeMounts":[{"name":"config","readOnly":true,"mountPath":"/etc/web"},{"name":"kube-api-access-${hex(index, 5)}","readOnly":true,"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],` +
    `"livenessProbe":{"httpGet":{"path":"/healthz","port":8080,"scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3},` +
    `"readinessProbe":{"httpGet":{"path":"/ready","port":8080,"scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":5,"successThreshold":1,"failureThreshold":3},` +
    `"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],` +
    `"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","serviceAccountName":"default","serviceAccount":"default",` +
    `"nodeName":"${node}","securityContext":{"runAsNonRoot":true,"fsGroup":2000},"schedulerName":"default-scheduler",` +
    `"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},` +
    `{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],` +
    `"priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},` +
    `"status":{"phase":"Running","conditions":[${condition('PodReadyToStartContainers', time(created + 2))},${condition('Initialized', time(created + 1))},` +
    `${condition('Ready', time(started + 3))},${condition('ContainersReady', time(started + 3))},${condition('PodScheduled', time(created))}],` +
    `"hostIP":"${hostIp}","hostIPs":[{"ip":"${hostIp}"}],"podIP":"${ip}","podIPs":[{"ip":"${ip}"}],"startTime":"${time(created + 1)}",` +
    `"containerStatuses":[{"name":"web","state":{"running":{"startedAt":"${time(started)}"}},` +
    (restarts > 0 ? `"lastState":{"terminated":{"exitCode":137,"reason":"OOMKilled","startedAt":"${time(started - 30)}","finishedAt":"${time(started - 1)}","containerID":"containerd://${hex(index * 104729 + restarts - 1, 8).repeat(8)}"}},` : `"lastState":{},`) +
    `"ready":true,"restartCount":${restarts},"image":"${IMAGE}","imageID":"${IMAGE_ID}","containerID":"containerd://${hex(index * 104729 + restarts, 8).repeat(8)}","started":true}],` +
    `"qosClass":"Burstable"}}`
  );
}
