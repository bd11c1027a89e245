import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addLaunchConfigurations, type LaunchInput } from '../../../../src/setup/goProject/launchConfig.ts';
import { parseJsonc } from '../../../../src/setup/goProject/jsoncText.ts';

const INPUT: LaunchInput = { projectName: 'memcached-operator', program: './cmd', scenario: 'controller-lab/scenario.yaml' };

test('a new launch.json: the two configurations of examples/go-guestbook, on the starter scenario', () => {
  const r = addLaunchConfigurations(undefined, { ...INPUT, env: { BUSYBOX_IMAGE: 'busybox:1.36.1' } });
  assert.equal(r.kind, 'changed');
  if (r.kind !== 'changed') return;
  const common = { type: 'controller-lab', request: 'launch', program: './cmd', cwd: '${workspaceFolder}', cluster: 'sim', scenario: '${workspaceFolder}/controller-lab/scenario.yaml', env: { BUSYBOX_IMAGE: 'busybox:1.36.1' } };
  assert.deepEqual(JSON.parse(r.text), {
    version: '0.2.0',
    configurations: [
      { ...common, name: 'memcached-operator (simulated cluster)', stopOnEntry: true },
      { ...common, name: 'memcached-operator (simulated cluster, Go line breakpoints through Delve)', lineBreakpoints: true },
    ],
  });
  assert.deepEqual(Object.keys(JSON.parse(r.text).configurations[0]).slice(0, 4), ['type', 'request', 'name', 'program']);
  assert.deepEqual(addLaunchConfigurations(r.text, INPUT), { kind: 'unchanged', why: 'it has a controller-lab configuration for ./cmd' });
});

test('an existing launch.json with comments and a trailing comma keeps them, and its configurations come first', () => {
  const existing = `// Debug configurations of this project
{
    "version": "0.2.0",
    /* the Go extension's own */
    "configurations": [
        {
            "name": "Launch Package", // the usual one
            "type": "go",
            "request": "launch",
            "program": "\${workspaceFolder}/cmd",
        },
        // more to come
    ]
}
`;
  const r = addLaunchConfigurations(existing, INPUT);
  assert.equal(r.kind, 'changed');
  if (r.kind !== 'changed') return;
  for (const kept of ['// Debug configurations of this project', '/* the Go extension\'s own */', '"name": "Launch Package", // the usual one', '        },\n        // more to come\n']) {
    assert.ok(r.text.includes(kept), kept);
  }
  assert.ok(r.text.includes('        // more to come\n        {\n            "type": "controller-lab",\n'), r.text);
  assert.ok(r.text.endsWith('        }\n    ]\n}\n'), r.text);
  const parsed = parseJsonc(r.text) as { configurations: { name: string }[] };
  assert.deepEqual(parsed.configurations.map((c) => c.name), ['Launch Package', 'memcached-operator (simulated cluster)', 'memcached-operator (simulated cluster, Go line breakpoints through Delve)']);
  // Once there, a configuration of ours for the same program (however it is written) means done.
  assert.equal(addLaunchConfigurations(r.text, { ...INPUT, program: '${workspaceFolder}/cmd/' }).kind, 'unchanged');
});

test('an empty list, a file without one, and a file that is not JSON', () => {
  const empty = addLaunchConfigurations('{ "version": "0.2.0", "configurations": [] }\n', INPUT);
  assert.equal(empty.kind, 'changed');
  if (empty.kind === 'changed') assert.equal((parseJsonc(empty.text) as { configurations: unknown[] }).configurations.length, 2);
  const none = addLaunchConfigurations('{\n  "version": "0.2.0"\n}\n', INPUT);
  assert.equal(none.kind, 'changed');
  if (none.kind === 'changed') assert.equal((parseJsonc(none.text) as { configurations: unknown[] }).configurations.length, 2);
  assert.equal(addLaunchConfigurations('{ "configurations": [ { ', INPUT).kind, 'unreadable');
});

test('configurations written before a webhook was added are named with the variable they now need', () => {
  const before = addLaunchConfigurations(undefined, INPUT);
  assert.equal(before.kind, 'changed');
  if (before.kind !== 'changed') return;
  const note = 'ENABLE_WEBHOOKS=false: the webhook server needs serving certificates, which cert-manager makes in a cluster';
  assert.deepEqual(addLaunchConfigurations(before.text, { ...INPUT, env: { ENABLE_WEBHOOKS: 'false' }, envNote: note }), {
    kind: 'missingEnv',
    advice: `"memcached-operator (simulated cluster)", "memcached-operator (simulated cluster, Go line breakpoints through Delve)" set no ENABLE_WEBHOOKS: add "ENABLE_WEBHOOKS": "false" to their "env" (${note})`,
  });
  // One that has it, whatever its value, is the user's choice.
  const edited = before.text.replace('"stopOnEntry": true', '"env": { "ENABLE_WEBHOOKS": "true" },\n      "stopOnEntry": true');
  const r = addLaunchConfigurations(edited, { ...INPUT, env: { ENABLE_WEBHOOKS: 'false' } });
  assert.deepEqual(r, { kind: 'missingEnv', advice: '"memcached-operator (simulated cluster, Go line breakpoints through Delve)" sets no ENABLE_WEBHOOKS: add "ENABLE_WEBHOOKS": "false" to its "env"' });
});

test('configurations an earlier Controller Lab wrote with the webhooks off are named, with what to remove to have them on the simulated cluster', () => {
  const before = addLaunchConfigurations(undefined, { ...INPUT, env: { ENABLE_WEBHOOKS: 'false' } });
  assert.equal(before.kind, 'changed');
  if (before.kind !== 'changed') return;
  const r = addLaunchConfigurations(before.text, INPUT);
  assert.equal(r.kind, 'missingEnv');
  if (r.kind !== 'missingEnv') return;
  assert.match(r.advice, /^"memcached-operator \(simulated cluster\)", "memcached-operator \(simulated cluster, Go line breakpoints through Delve\)" set "ENABLE_WEBHOOKS": "false", which an earlier Controller Lab wrote/);
  assert.match(r.advice, /remove it from their "env" to have them$/);
  // Turned on by the user: nothing to say.
  assert.deepEqual(addLaunchConfigurations(before.text.replaceAll('"false"', '"true"'), INPUT), { kind: 'unchanged', why: 'it has a controller-lab configuration for ./cmd' });
});
