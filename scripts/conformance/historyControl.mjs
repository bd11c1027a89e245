// What the informer tests cannot do through the API: make a server forget its history, so that a
// watch resuming from an older resourceVersion (expire), or a paged list's next page (compact), is
// answered 410. Served on loopback to the test process; each target does it its own way.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { REPO } from './paths.mjs';

/** etcd compacted to its newest revision: what kube-apiserver's own compactor does every 5 minutes. */
async function compactEtcd(etcdUrl) {
  const ask = async (path, body) => {
    const res = await fetch(`${etcdUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`etcd ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  // Any range answers with the store's current revision in its header.
  const { header } = await ask('/v3/kv/range', { key: Buffer.from('/').toString('base64') });
  await ask('/v3/kv/compaction', { revision: header.revision, physical: true });
  return `etcd compacted at revision ${header.revision}`;
}

/**
 * kube-apiserver. compact: etcd alone (requests etcd serves, such as a paged list's next page, see
 * it; the watch cache does not). expire: etcd compacted, then kube-apiserver restarted, so its watch
 * caches start over from etcd's newest revision.
 */
export function realHistory(cluster) {
  return {
    compact: () => compactEtcd(cluster.etcdUrl),
    async expire() {
      const compacted = await compactEtcd(cluster.etcdUrl);
      await cluster.restartApiServer();
      return `${compacted}; kube-apiserver restarted`;
    },
  };
}

/** The sim: its compact fault for both, through the CLI a user has. */
export function simHistory(cluster) {
  const compact = async () => execFileSync(process.execPath, [join(REPO, 'dist', 'cli.cjs'), 'sim', 'fault', 'compact', '--kubeconfig', cluster.kubeconfig], { encoding: 'utf8' }).trim();
  return { compact, expire: compact };
}

/** Serves POST /expire and POST /compact on a free loopback port; resolves with its URL and a close function. */
export function serveHistoryControl(history) {
  const server = createServer((req, res) => {
    const action = { '/expire': history.expire, '/compact': history.compact }[req.url ?? ''];
    if (req.method !== 'POST' || !action) {
      res.writeHead(404).end();
      return;
    }
    action().then(
      (what) => res.writeHead(200, { 'content-type': 'text/plain' }).end(what),
      (err) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err?.stack ?? err)),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }));
  });
}
