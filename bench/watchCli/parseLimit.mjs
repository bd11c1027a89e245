// The parse limit as a whole process: list, then watch from the list's resourceVersion, keeping
// objects in a Map, and exit once the object named on the command line shows up. Node's own HTTP
// client, JSON.parse and a Map, nothing else: no informer could do less and still hold the objects.
//
//   node parseLimit.mjs SERVER_URL COLLECTION_PATH NAMESPACE/NAME

// Not `import http from 'node:http'`: an ES module's import of a built-in reads all its exports,
// and node:http's WebSocket getters load undici, crypto and TLS — ~30 ms of CPU at start-up that
// no client needs, and that controller-lab's CommonJS bundle, which requires node:http, never paid.
const http = process.getBuiltinModule('node:http');

const [server, path, wanted] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true });
const cache = new Map();
const keyOf = (o) => `${o.metadata.namespace}/${o.metadata.name}`;

function get(query) {
  return new Promise((resolve, reject) => {
    http.get(`${server}${path}?${query}`, { agent, headers: { Authorization: 'Bearer bench', Accept: 'application/json' } }, resolve).on('error', reject);
  });
}

const listed = await get('resourceVersion=0&limit=500');
const chunks = [];
for await (const chunk of listed) chunks.push(chunk);
const list = JSON.parse(Buffer.concat(chunks).toString('utf8'));
for (const item of list.items) cache.set(keyOf(item), item);

const watch = await get(`watch=true&allowWatchBookmarks=true&resourceVersion=${list.metadata.resourceVersion}`);
watch.setEncoding('utf8');
let pending = '';
watch.on('data', (chunk) => {
  const lines = (pending + chunk).split('\n');
  pending = lines.pop();
  for (const line of lines) {
    if (line === '') continue;
    const event = JSON.parse(line);
    const key = keyOf(event.object);
    if (event.type === 'DELETED') cache.delete(key);
    else cache.set(key, event.object);
    if (key === wanted) {
      process.stderr.write(`cached=${cache.size}\n`);
      process.exit(0);
    }
  }
});
