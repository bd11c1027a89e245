import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestSimulated, TEST_HELP } from '../../../../src/setup/goProject/makefileTest.ts';
import { scaffoldFile } from './fixtures.ts';

test('kubebuilder\'s test target loses setup-envtest and KUBEBUILDER_ASSETS, and says why', () => {
  const makefile = scaffoldFile('Makefile');
  const r = makeTestSimulated(makefile);
  assert.equal(r.kind, 'changed');
  if (r.kind !== 'changed') return;
  const before = 'test: manifests generate fmt vet setup-envtest ## Run tests.\n\tKUBEBUILDER_ASSETS="$(shell "$(ENVTEST)" use $(ENVTEST_K8S_VERSION) --bin-dir "$(LOCALBIN)" -p path)" go test $$(go list ./... | grep -v /e2e) -coverprofile cover.out\n';
  const after = `test: manifests generate fmt vet ${TEST_HELP}\n\tgo test $$(go list ./... | grep -v /e2e) -coverprofile cover.out\n`;
  assert.ok(makefile.includes(before));
  assert.equal(r.text, makefile.replace(before, () => after));
  // The setup-envtest target itself stays, for whoever still wants it.
  assert.ok(r.text.includes('.PHONY: setup-envtest\nsetup-envtest: envtest'));
  assert.deepEqual(makeTestSimulated(r.text), { kind: 'alreadySimulated' });
});

test('a test target of another shape is left alone with advice; a Makefile without one is not a problem', () => {
  const other = 'test: setup-envtest\n\tsource <(setup-envtest use -p env) && go test ./...\n';
  const r = makeTestSimulated(other);
  assert.equal(r.kind, 'otherShape');
  assert.deepEqual(makeTestSimulated('build:\n\tgo build ./...\n'), { kind: 'noTestTarget' });
  assert.deepEqual(makeTestSimulated('test: fmt\n\tgo test ./...\n'), { kind: 'alreadySimulated' });
});
