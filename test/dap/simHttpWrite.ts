import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

// A write through the simulated cluster's HTTP API, as any client (kubectl, another controller)
// makes it: the kubeconfig's server, CA and bearer token, a JSON merge patch.

interface Kubeconfig {
  clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { user: { token: string } }[];
}

export async function mergePatch(kubeconfigPath: string, path: string, patch: object): Promise<number> {
  const config = parseYaml(readFileSync(kubeconfigPath, 'utf8')) as Kubeconfig;
  const { server, 'certificate-authority-data': ca } = config.clusters[0]!.cluster;
  const body = JSON.stringify(patch);
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server), {
      method: 'PATCH',
      ca: Buffer.from(ca, 'base64'),
      headers: { authorization: `Bearer ${config.users[0]!.user.token}`, 'content-type': 'application/merge-patch+json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}
