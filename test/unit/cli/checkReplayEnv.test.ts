import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayEnv } from '../../../src/cli/check.ts';

// A finding's replay command runs the program as the check did: a kubebuilder project checked with
// ENABLE_WEBHOOKS=false (and its manager's env) is replayed with them, and nothing else is copied.

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
