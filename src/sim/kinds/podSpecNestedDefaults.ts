import { isObj, items, setDefault, type Obj } from './defaulting.ts';

// The defaults kube-apiserver fills in below a pod spec's top level: volume sources (file modes
// 0644, a hostPath's empty type, an emptyDir for a volume that names no source), probes and
// lifecycle handlers, and env fieldRefs' apiVersion (SetDefaults_Volume, _Probe, _HTTPGetAction,
// _ConfigMapVolumeSource, … in pkg/apis/core/v1). A controller that compares the template it
// wants with the one it reads back sees these, in a cluster as here.

const FILE_MODE = 0o644;

function defaultFieldRef(holder: unknown): void {
  if (isObj(holder) && isObj(holder.fieldRef)) setDefault(holder.fieldRef, 'apiVersion', 'v1');
}

function defaultProjectedSource(source: Obj): void {
  if (isObj(source.serviceAccountToken)) setDefault(source.serviceAccountToken, 'expirationSeconds', 3600);
  if (isObj(source.downwardAPI)) items(source.downwardAPI, 'items').forEach(defaultFieldRef);
}

export function defaultVolume(volume: Obj): void {
  if (!Object.entries(volume).some(([k, v]) => k !== 'name' && v !== undefined && v !== null)) volume.emptyDir = {};
  for (const source of ['configMap', 'secret', 'downwardAPI', 'projected']) {
    const s = volume[source];
    if (isObj(s)) setDefault(s, 'defaultMode', FILE_MODE);
  }
  if (isObj(volume.hostPath)) setDefault(volume.hostPath, 'type', '');
  if (isObj(volume.downwardAPI)) items(volume.downwardAPI, 'items').forEach(defaultFieldRef);
  if (isObj(volume.projected)) items(volume.projected, 'sources').forEach(defaultProjectedSource);
}

function defaultHttpGet(handler: unknown): void {
  if (!isObj(handler) || !isObj(handler.httpGet)) return;
  setDefault(handler.httpGet, 'path', '/');
  setDefault(handler.httpGet, 'scheme', 'HTTP');
}

function defaultProbe(probe: unknown): void {
  if (!isObj(probe)) return;
  // Go fills these when zero, not only when missing.
  const zeroTo = (key: string, value: number) => {
    if (!probe[key]) probe[key] = value;
  };
  zeroTo('timeoutSeconds', 1);
  zeroTo('periodSeconds', 10);
  zeroTo('successThreshold', 1);
  zeroTo('failureThreshold', 3);
  defaultHttpGet(probe);
}

export function defaultContainerNested(container: Obj): void {
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(container[probe]);
  if (isObj(container.lifecycle)) for (const hook of ['postStart', 'preStop']) defaultHttpGet(container.lifecycle[hook]);
  for (const env of items(container, 'env')) defaultFieldRef(env.valueFrom);
}
