import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPLICASET_SCENARIO, ROOT, withTempDir } from './support/runController.ts';

// `controller-lab run --as`: the controller runs as its ServiceAccount, so the simulated cluster
// holds it to the RBAC it ships — told plainly when a rule is missing, converging when none is.

const CLI = join(ROOT, 'src/cli/main.ts');
const CONTROLLER = 'examples/replicaset-controller/controller.ts';
const AS = 'system:serviceaccount:default:replicaset-controller';

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, 'run', CONTROLLER, '--sim', '--as', AS, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The controller's RBAC, as `config/rbac` would ship it. */
const RBAC = `
  - apiVersion: v1
    kind: ServiceAccount
    metadata: { name: replicaset-controller, namespace: default }
  - apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRole
    metadata: { name: replicaset-controller }
    rules:
      - { apiGroups: [apps], resources: [replicasets], verbs: [get, list, watch] }
      - { apiGroups: [apps], resources: [replicasets/status], verbs: [get, update, patch] }
      - { apiGroups: [""], resources: [pods], verbs: [get, list, watch, create, delete] }
  - apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRoleBinding
    metadata: { name: replicaset-controller }
    roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: replicaset-controller }
    subjects: [{ kind: ServiceAccount, name: replicaset-controller, namespace: default }]`;

test('run --as without RBAC: each informer says once what it may not list, with the rule to add, and nothing is reconciled', () => {
  const r = run(['--scenario', REPLICASET_SCENARIO, '--timeout', '6']);
  assert.equal(r.code, 1, r.stdout);
  for (const [informer, resource, group] of [['replicasets.apps', 'replicasets', 'apps'], ['pods', 'pods', '']]) {
    const line = `controller-lab run: informer ${informer}: ${informer} is forbidden: User "${AS}" cannot list resource "${resource}" in API group "${group}" at the cluster scope (403); retrying with backoff`;
    assert.equal(r.stderr.split('\n').filter((l) => l === line).length, 1, `once:\n${line}\nin:\n${r.stderr}`);
    const hint = `controller-lab run: hint: ${AS} lacks {apiGroups: [${JSON.stringify(group)}], resources: ["${resource}"], verbs: ["list"]}; kubebuilder: // +kubebuilder:rbac:groups=${group || '""'},resources=${resource},verbs=get;list;watch`;
    assert.equal(r.stderr.split('\n').filter((l) => l === hint).length, 1, `once:\n${hint}\nin:\n${r.stderr}`);
  }
  assert.match(r.stdout, /run: 0 reconciles/);
  // Giving up, it says what it waited for: the informers RBAC refused, not a scenario.
  assert.match(r.stderr, /^controller-lab run: gave up after 6 s \(not idle: the informers have not synced — (replicasets\.apps|pods): \S+ is forbidden: User/m);
  assert.doesNotMatch(r.stderr, /scenario running/);
});

test('run --as with the controller\'s Roles in the scenario: it converges as before', () => {
  withTempDir((dir) => {
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, readFileSync(REPLICASET_SCENARIO, 'utf8').replace('objects:', `objects:${RBAC}`));
    const r = run(['--scenario', scenario, '--until-idle', '--timeout', '40']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /forbidden/);
    assert.match(r.stdout, /created Pod default\/web-2|create.*web-2/);
  });
});
