import type { KubeObject } from '../../shared/k8s.ts';
import type { StoredObjects } from './kindStrategy.ts';

// A new Service's cluster IP, as kube-apiserver's allocator hands it out: a free address in
// 10.96.0.0/16 (10.96.0.1 is the `kubernetes` service's in a real cluster); none for headless and
// ExternalName services. An address the request names is kept.

type ServiceSpec = { type?: string; clusterIP?: string; clusterIPs?: string[] };

export function allocateClusterIp(obj: KubeObject, stored: StoredObjects): void {
  const spec = (obj as { spec?: ServiceSpec }).spec;
  if (!spec || spec.type === 'ExternalName' || spec.clusterIP === 'None') {
    if (spec?.clusterIP === 'None') spec.clusterIPs = ['None'];
    return;
  }
  if (!spec.clusterIP) {
    const used = new Set<string>();
    for (const s of stored.list('', 'services')) {
      const ip = (s.spec as ServiceSpec | undefined)?.clusterIP;
      if (ip) used.add(ip);
    }
    for (let n = 10; n < 65_536; n++) {
      const ip = `10.96.${n >> 8}.${n & 255}`;
      if (!used.has(ip)) {
        spec.clusterIP = ip;
        break;
      }
    }
  }
  spec.clusterIPs ??= [spec.clusterIP ?? ''];
}
