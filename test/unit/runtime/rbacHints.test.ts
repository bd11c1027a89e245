import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RbacHints } from '../../../src/runtime/rbacHints.ts';

// The hint `run` and the debugger print for an RBAC refusal: the rule and the kubebuilder marker,
// read from kube-apiserver's 403 wherever it shows up (an informer's error, a write, a Go log line).

test('a refusal becomes the missing rule and its kubebuilder marker, once however often it recurs', () => {
  const hints = new RbacHints();
  const list = 'pods is forbidden: User "system:serviceaccount:team:bot" cannot list resource "pods" in API group "" at the cluster scope';
  assert.deepEqual(hints.hintsFor(list), [
    'hint: system:serviceaccount:team:bot lacks {apiGroups: [""], resources: ["pods"], verbs: ["list"]}; kubebuilder: // +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch',
  ]);
  assert.deepEqual(hints.hintsFor(list), [], 'told once');
  const status = 'deployments.apps "web" is forbidden: User "bot" cannot update resource "deployments/status" in API group "apps" in the namespace "team"';
  assert.deepEqual(hints.hintsFor(status), [
    'hint: bot lacks {apiGroups: ["apps"], resources: ["deployments/status"], verbs: ["update"]}; kubebuilder: // +kubebuilder:rbac:groups=apps,resources=deployments/status,verbs=update',
  ]);
});

test('a Go manager\'s JSON log line, its quotes escaped, is read the same; other text gives nothing', () => {
  const hints = new RbacHints();
  const logged = '{"error": "failed to list *v1.Guestbook: guestbooks.webapp.example.com is forbidden: User \\"system:serviceaccount:system:nobody\\" cannot list resource \\"guestbooks\\" in API group \\"webapp.example.com\\" at the cluster scope"}';
  assert.deepEqual(hints.hintsFor(logged), [
    'hint: system:serviceaccount:system:nobody lacks {apiGroups: ["webapp.example.com"], resources: ["guestbooks"], verbs: ["list"]}; kubebuilder: // +kubebuilder:rbac:groups=webapp.example.com,resources=guestbooks,verbs=get;list;watch',
  ]);
  assert.deepEqual(hints.hintsFor('configmaps "x" not found'), []);
  assert.deepEqual(hints.hintsFor('forbidden: User "jane" cannot get path "/metrics"'), [], 'a path is no rule of a Role');
});
