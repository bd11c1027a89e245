import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleCli } from './support/bundleCli.ts';
import { runCli } from './support/runCli.ts';
import { configMap, startScriptedCluster, watchLine } from './support/scriptedCluster.ts';

// The shipped command is esbuild CommonJS bundles (scripts/build.mjs → dist/cli.cjs and one bundle
// per subcommand), built here the same way into a scratch folder.

test('the bundled CLI (CJS, a bundle per subcommand) watches a cluster, without client-node\'s generated API', async (t) => {
  const c = await startScriptedCluster({ items: [configMap('a', '3')], watch: (res) => res.write(watchLine('ADDED', 'b', '11')) });
  t.after(() => c.close());
  const outfile = path.join(c.dir, 'cli.cjs');
  const metafile = await bundleCli(outfile);
  // client-node's generated API and its undici (~2.3 MB, ~0.8 s to load) must not creep in.
  const heavy = Object.keys(metafile.inputs).filter((f) => f.includes('client-node/dist/gen/') || f.includes('node_modules/undici/') || f.endsWith('client-node/dist/config.js'));
  assert.deepEqual(heavy, []);
  // `watch` starts without compiling the simulator (1.2 MB, ~25 ms of CPU on every start).
  const watchInputs = Object.entries(metafile.outputs).find(([file]) => file.endsWith('cli-watch.cjs'))?.[1].inputs ?? {};
  assert.ok(Object.keys(watchInputs).some((f) => f.endsWith('src/cli/watch.ts')), 'watch has its own bundle');
  assert.deepEqual(Object.keys(watchInputs).filter((f) => f.includes('src/sim/')), []);
  const r = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '--exit-when-seen', 'default/b'], { entry: outfile });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /ADDED\s+default\s+b\s+11/);
  assert.match(r.stderr, /^lists=1 watches=1 relists=0 410s=0 events=1 /m);
});

test('the bundled watch reads a YAML kubeconfig through a YAML bundle of its own, and a JSON one without it', async (t) => {
  const c = await startScriptedCluster({ items: [configMap('a', '3')], watch: (res) => res.write(watchLine('ADDED', 'b', '11')) });
  t.after(() => c.close());
  const outfile = path.join(c.dir, 'cli.cjs');
  const metafile = await bundleCli(outfile);
  // The YAML library's 112 KB, compiled on every start inside the watch bundle, made a watch
  // with a JSON kubeconfig 3–9 ms of CPU slower to start.
  const watchInputs = Object.entries(metafile.outputs).find(([file]) => file.endsWith('cli-watch.cjs'))?.[1].inputs ?? {};
  assert.deepEqual(Object.keys(watchInputs).filter((f) => f.includes('node_modules/yaml/')), []);
  const yamlConfig = path.join(c.dir, 'config.yaml');
  const { clusters, users } = JSON.parse(readFileSync(c.kubeconfig, 'utf8')) as { clusters: [{ cluster: { server: string } }]; users: [{ user: { token: string } }] };
  writeFileSync(
    yamlConfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: yaml-cluster',
      '  cluster:',
      `    server: ${clusters[0].cluster.server}`,
      'users:',
      '- name: yaml-user',
      '  user:',
      `    token: ${users[0].user.token}`,
      'contexts:',
      '- name: yaml-context',
      '  context: {cluster: yaml-cluster, user: yaml-user, namespace: default} # flow style, and a comment',
      'current-context: yaml-context',
      '',
    ].join('\n'),
  );
  const fromYaml = await runCli(['watch', 'cm', '--kubeconfig', yamlConfig, '--exit-when-seen', 'default/b'], { entry: outfile });
  assert.equal(fromYaml.code, 0, fromYaml.stderr);
  assert.match(fromYaml.stdout, /ADDED\s+default\s+b\s+11/);
  // A JSON kubeconfig never loads it: the command works with the YAML bundle gone.
  rmSync(path.join(c.dir, 'cli-yaml.cjs'));
  const fromJson = await runCli(['watch', 'cm', '--kubeconfig', c.kubeconfig, '--exit-when-seen', 'default/b'], { entry: outfile });
  assert.equal(fromJson.code, 0, fromJson.stderr);
  assert.match(fromJson.stdout, /ADDED\s+default\s+b\s+11/);
});
