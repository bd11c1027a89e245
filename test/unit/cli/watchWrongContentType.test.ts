import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from './support/runCli.ts';
import { configMap, startScriptedCluster, watchLine } from './support/scriptedCluster.ts';

// A watch answered by something other than the API server (a proxy's or a load balancer's HTML
// error page, with status 200): the warning says what came (its content type, the status, a short
// excerpt) and what to look at, not the page's raw bytes.

const PAGE = `<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body>\u001b[31m<h1>Bad Gateway</h1><p>The proxy could not reach the upstream server.</p>${'<!-- padding -->'.repeat(400)}</body></html>\n`;

test('a watch answered with an HTML page: the warning names the content type and status, with a short escaped excerpt', { timeout: 60_000 }, async (t) => {
  const c = await startScriptedCluster({
    items: [configMap('a', '5')],
    watchContentType: (attempt) => (attempt === 0 ? 'text/html; charset=utf-8' : 'application/json'),
    watch: (res, attempt) => {
      if (attempt === 0) return void res.end(PAGE);
      res.write(watchLine('ADDED', 'sentinel', '13'));
    },
  });
  t.after(() => c.close());
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '-o', 'none', '--exit-when-seen', 'default/sentinel']);
  assert.equal(r.code, 0, r.stderr);
  const warnings = r.stderr.split('\n').filter((l) => l.includes('warning'));
  assert.equal(warnings.length, 1, r.stderr);
  const [warning] = warnings as [string];
  assert.match(warning, /^controller-lab watch: warning: the watch of \/api\/v1\/namespaces\/default\/configmaps was answered 200 with Content-Type text\/html; charset=utf-8, not a watch stream \(application\/json\): "<!DOCTYPE html>\\n<html><head><title>502 Bad Gateway<\/title>.*" \(\d+ or more bytes\); a proxy or load balancer between here and the API server may have answered: check the kubeconfig's server and proxy-url and HTTPS_PROXY \(retrying\)$/);
  assert.ok(warning.length < 500, `${warning.length} characters`);
  assert.ok(!r.stderr.includes('\u001b') && !r.stderr.includes('padding'), 'escaped and capped');
});
