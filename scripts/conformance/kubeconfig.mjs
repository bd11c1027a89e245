// A kubeconfig for one server and one bearer token, and a readiness probe that uses it.
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';

export function writeKubeconfig(path, { server, caFile, token }) {
  writeFileSync(
    path,
    `apiVersion: v1
kind: Config
clusters:
- name: target
  cluster:
    server: ${server}
    certificate-authority: ${caFile}
users:
- name: admin
  user:
    token: ${token}
contexts:
- name: target
  context: {cluster: target, user: admin}
current-context: target
`,
    { mode: 0o600 },
  );
}

/** GET a path with the token; resolves with { status, body }. */
export function get(server, path, { token, caFile } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server), {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ca: caFile ? readFileSync(caFile) : undefined,
      rejectUnauthorized: Boolean(caFile),
      timeout: 5000,
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}
