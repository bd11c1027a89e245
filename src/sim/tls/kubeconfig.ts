// A kubeconfig that points kubectl, client-go and client-node at the simulated cluster: the CA is
// embedded (certificate-authority-data) so no file besides this one is needed, and the bearer token
// is the one the server demands on every request.
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export interface KubeconfigInput {
  /** https://127.0.0.1:PORT (or http:// when serving plain HTTP). */
  server: string;
  token: string;
  /** Omitted for plain HTTP. */
  caPem?: string;
  /** Names the cluster, user and context. */
  name?: string;
  namespace?: string;
}

export function renderKubeconfig(input: KubeconfigInput): string {
  const name = input.name ?? 'controller-lab-sim';
  const cluster: Record<string, string> = { server: input.server };
  if (input.caPem) cluster['certificate-authority-data'] = Buffer.from(input.caPem).toString('base64');
  const context: Record<string, string> = { cluster: name, user: name };
  if (input.namespace) context['namespace'] = input.namespace;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name, user: { token: input.token } }],
    contexts: [{ name, context }],
    'current-context': name,
    preferences: {},
  });
}

/**
 * Writes with owner-only permissions: the file holds the bearer token. A file already there keeps
 * its mode on write, so it is narrowed to 0600 before the token goes in.
 */
export async function writeKubeconfig(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writePrivateFile(path, content);
}

/** Creates `path` 0600, or narrows an existing one to 0600 before writing `content` into it. */
export async function writePrivateFile(path: string, content: string): Promise<void> {
  const handle = await open(path, 'w', 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}
