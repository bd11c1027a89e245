import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENVTEST_GUARD, makeTestSimulated, TEST_HELP } from '../../../../src/setup/goProject/makefileTest.ts';
import { scaffoldFile } from './fixtures.ts';

test('kubebuilder\'s test target loses setup-envtest and KUBEBUILDER_ASSETS, and says why', () => {
  const makefile = scaffoldFile('Makefile');
  const r = makeTestSimulated(makefile);
  assert.equal(r.kind, 'changed');
  if (r.kind !== 'changed') return;
  const before = 'test: manifests generate fmt vet setup-envtest ## Run tests.\n\tKUBEBUILDER_ASSETS="$(shell "$(ENVTEST)" use $(ENVTEST_K8S_VERSION) --bin-dir "$(LOCALBIN)" -p path)" go test $$(go list ./... | grep -v /e2e) -coverprofile cover.out\n';
  const after = `test: manifests generate fmt vet ${TEST_HELP}\n${ENVTEST_GUARD}\n\tgo test $$(go list ./... | grep -v /e2e) -coverprofile cover.out\n`;
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

test('a Makefile made simulated before the target named envtest suites gets that line, once', () => {
  const older = `test: manifests generate fmt vet ${TEST_HELP}\n\tgo test $$(go list ./... | grep -v /e2e) -coverprofile cover.out\n`;
  const r = makeTestSimulated(older);
  assert.equal(r.kind, 'changed');
  if (r.kind !== 'changed') return;
  assert.equal(r.text, older.replace('\n\tgo test', () => `\n${ENVTEST_GUARD}\n\tgo test`));
  assert.deepEqual(makeTestSimulated(r.text), { kind: 'alreadySimulated' });
});

test('make test stops on a suite kubebuilder scaffolded after init go, naming it and the command that moves it to simtest', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-make-guard-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = makeTestSimulated(scaffoldFile('Makefile'));
  assert.equal(r.kind, 'changed');
  if (r.kind !== 'changed') return;
  // The target as init go leaves it, its prerequisites (controller-gen, go vet) left out.
  const rule = r.text.slice(r.text.indexOf('\ntest:') + 1).split('\n\n')[0]!;
  writeFileSync(join(dir, 'Makefile'), `${rule.replace(/^test:[^#]*/, 'test: ').replace(/\tgo test .*/, '\t@echo tests ran')}\n`);
  const suite = (path: string, kind: 'envtest' | 'simtest') => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), `package v1\n\nvar _ = func() any {\n\ttestEnv = &${kind}.Environment{\n\t\tCRDDirectoryPaths: nil,\n\t}\n\treturn nil\n}\n`);
  };
  suite('internal/controller/suite_test.go', 'simtest');
  suite('controller-lab/go/simtest/envtest_compat_test.go', 'envtest');
  const make = (env: NodeJS.ProcessEnv = {}) => spawnSync('make', ['--no-print-directory', 'test'], { cwd: dir, encoding: 'utf8', env: { ...process.env, KUBEBUILDER_ASSETS: '', ...env } });

  let ran = make();
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout.trim(), 'tests ran', "simtest suites, and Controller Lab's own copy, pass");

  suite('internal/webhook/v1/webhook_suite_test.go', 'envtest');
  ran = make();
  assert.notEqual(ran.status, 0);
  assert.doesNotMatch(ran.stdout, /tests ran/);
  assert.match(ran.stderr, /^\.\/internal\/webhook\/v1\/webhook_suite_test\.go: still starts envtest, whose etcd and kube-apiserver make test no longer downloads: run 'controller-lab init go' to move it to simtest/m);
  assert.doesNotMatch(ran.stderr, /suite_test\.go: .*\n.*suite_test|controller-lab\/go/, 'only the envtest suite is named');

  ran = make({ KUBEBUILDER_ASSETS: '/opt/envtest/bin' });
  assert.equal(ran.status, 0, 'with envtest binaries given, the suite runs as it is');
});
