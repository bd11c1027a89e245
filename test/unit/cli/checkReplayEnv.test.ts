import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayEnv } from '../../../src/cli/checkReplayEnv.ts';

// A finding's replay command runs the program as the check did: a kubebuilder project checked with
// ENABLE_WEBHOOKS=false (and its manager's env) is replayed with them, and so with the variables its
// own code reads; the shell's own are left to the shell the replay runs in.

test('the variables a local run of the project needs, as they are set; none for a TypeScript controller', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-replay-env-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'cmd'));
  mkdirSync(join(dir, 'config/manager'), { recursive: true });
  writeFileSync(join(dir, 'go.mod'), 'module example.com/store\n\ngo 1.26\n');
  writeFileSync(join(dir, 'cmd/main.go'), 'package main\n\nimport "os"\n\nfunc main() {\n\tif os.Getenv("ENABLE_WEBHOOKS") != "false" {\n\t}\n}\n');
  writeFileSync(join(dir, 'config/manager/manager.yaml'), 'kind: Deployment\nspec: { template: { spec: { containers: [{ name: manager, env: [{ name: BUSYBOX_IMAGE, value: "busybox:1.36.1" }] }] } } }\n');
  writeFileSync(join(dir, 'controller.ts'), 'export default {};\n');

  const env = { ENABLE_WEBHOOKS: 'false', BUSYBOX_IMAGE: 'busybox:1.37', HOME: '/root', PATH: '/usr/bin' };
  assert.deepEqual(replayEnv('./cmd', env, dir), { BUSYBOX_IMAGE: 'busybox:1.37', ENABLE_WEBHOOKS: 'false' });
  assert.deepEqual(replayEnv('.', env, dir), { BUSYBOX_IMAGE: 'busybox:1.37', ENABLE_WEBHOOKS: 'false' }, 'the module root builds ./cmd');
  assert.deepEqual(replayEnv('./cmd', { PATH: '/usr/bin' }, dir), {}, 'unset: not in the command');
  assert.deepEqual(replayEnv('./controller.ts', env, dir), {});
});

test("the variables the program's own code reads, as the check was given them; the shell's own and vendored code's are left out", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-replay-env-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const d of ['cmd', 'internal/controller', 'internal/config', 'vendor/example.com/lib', 'controller-lab/go/controllerlab']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'go.mod'), 'module example.com/store\n\ngo 1.26\n');
  writeFileSync(join(dir, 'cmd/main.go'), 'package main\n\nfunc main() {}\n');
  writeFileSync(join(dir, 'internal/controller/store_controller.go'), 'package controller\n\nimport "os"\n\nvar foo = os.Getenv("FOO")\nvar home = os.Getenv("HOME")\nvar token, _ = os.LookupEnv( "API_TOKEN" )\n');
  writeFileSync(join(dir, 'internal/controller/store_controller_test.go'), 'package controller\n\nimport "os"\n\nvar t = os.Getenv("TEST_ONLY")\n');
  writeFileSync(join(dir, 'internal/config/config.go'), 'package config\n\ntype Config struct {\n\tRegion string `env:"REGION" envDefault:"us"`\n\tZone string `envconfig:"ZONE"`\n}\n');
  writeFileSync(join(dir, 'vendor/example.com/lib/lib.go'), 'package lib\n\nimport "os"\n\nvar v = os.Getenv("VENDORED")\n');
  writeFileSync(join(dir, 'controller-lab/go/controllerlab/wrap.go'), 'package controllerlab\n\nimport "os"\n\nvar s = os.Getenv("CONTROLLER_LAB_SOCKET")\n');

  const env = {
    FOO: 'bar', API_TOKEN: 'x', REGION: 'eu', ZONE: 'b', GOFLAGS: '-tags=lab', TEST_ONLY: '1', VENDORED: '1',
    CONTROLLER_LAB_SOCKET: '/tmp/s', HOME: '/root', PATH: '/usr/bin', SSH_AUTH_SOCK: '/tmp/agent', KUBECONFIG: '/k',
  };
  assert.deepEqual(replayEnv('./cmd', env, dir), { API_TOKEN: 'x', FOO: 'bar', GOFLAGS: '-tags=lab', REGION: 'eu', ZONE: 'b' });
  assert.deepEqual(replayEnv('./cmd', { PATH: '/usr/bin', REGION: 'eu' }, dir), { REGION: 'eu' }, 'only what is set');
});

test('a TypeScript controller: the variables its folder reads from process.env', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-replay-env-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'lib'));
  mkdirSync(join(dir, 'node_modules/dep'), { recursive: true });
  writeFileSync(join(dir, 'controller.ts'), "import { mode } from './lib/mode.ts';\nexport default { name: process.env.CONTROLLER_NAME ?? 'x', mode };\n");
  writeFileSync(join(dir, 'lib/mode.ts'), "export const mode = process.env['MODE'];\n");
  writeFileSync(join(dir, 'node_modules/dep/index.js'), 'module.exports = process.env.DEP_VAR;\n');
  const env = { CONTROLLER_NAME: 'c1', MODE: 'fast', DEP_VAR: '1', HOME: '/root', SSH_AUTH_SOCK: '/tmp/agent' };
  assert.deepEqual(replayEnv('./controller.ts', env, dir), { CONTROLLER_NAME: 'c1', MODE: 'fast' });
});
