// What the informer tests cannot do through the API: make a server forget its history, so that a
// watch resuming from an older resourceVersion is answered 410. Served on loopback to the test
// process (POST /expire); each target does it its own way.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { REPO } from './paths.mjs';

/** kube-apiserver: etcd compacted to its newest revision, then kube-apiserver restarted (its watch caches start over). */
export function expireReal(cluster) {
  return async () => {
    const ask = async (path, body) => {
      const res = await fetch(`${cluster.etcdUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`etcd ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    // Any range answers with the store's current revision in its header.
    const { header } = await ask('/v3/kv/range', { key: Buffer.from('/').toString('base64') });
    await ask('/v3/kv/compaction', { revision: header.revision, physical: true });
    await cluster.restartApiServer();
    return `etcd compacted at revision ${header.revision}; kube-apiserver restarted`;
  };
}

/** The sim: its compact fault, through the CLI a user has. */
export function expireSim(cluster) {
  return async () => {
    const out = execFileSync(process.execPath, [join(REPO, 'dist', 'cli.cjs'), 'sim', 'fault', 'compact', '--kubeconfig', cluster.kubeconfig], { encoding: 'utf8' });
    return out.trim();
  };
}

/** Serves POST /expire on a free loopback port; resolves with its URL and a close function. */
export function serveHistoryControl(expire) {
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/expire') {
      res.writeHead(404).end();
      return;
    }
    expire().then(
      (what) => res.writeHead(200, { 'content-type': 'text/plain' }).end(what),
      (err) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err?.stack ?? err)),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }));
  });
}
