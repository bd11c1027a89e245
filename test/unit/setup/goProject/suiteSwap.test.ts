import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SIMTEST_PACKAGE, switchSuiteToSimtest } from '../../../../src/setup/goProject/suiteSwap.ts';
import { scaffoldFile } from './fixtures.ts';

const ENVTEST_IMPORT = '\t"sigs.k8s.io/controller-runtime/pkg/envtest"\n';

test('the controller suite: every envtest.Environment becomes simtest.Environment, and envtest\'s import goes', () => {
  const suite = scaffoldFile('internal/controller/suite_test.go');
  const r = switchSuiteToSimtest(suite);
  assert.equal(r.kind, 'switched');
  if (r.kind !== 'switched') return;
  assert.equal(r.count, 2);
  assert.equal(r.envtestImportKept, false);
  assert.ok(r.text.includes('\ttestEnv   *simtest.Environment\n'));
  assert.ok(r.text.includes('\ttestEnv = &simtest.Environment{\n\t\tCRDDirectoryPaths:     []string{filepath.Join("..", "..", "config", "crd", "bases")},\n\t\tErrorIfCRDPathMissing: true,\n\t}\n'));
  assert.ok(!r.text.includes(ENVTEST_IMPORT));
  assert.ok(r.text.includes(`\t"sigs.k8s.io/controller-runtime/pkg/client"\n\t"${SIMTEST_PACKAGE}"\n`));
  // kubebuilder's lookup of envtest's binaries goes (it logs `Failed to read directory ../../bin/k8s`
  // with a stack on every run), with `os`, which only it used; the rest stays as it was.
  assert.equal(r.binaryLookupDropped, true);
  assert.ok(!r.text.includes('getFirstFoundEnvTestBinaryDir'));
  assert.ok(!r.text.includes('BinaryAssetsDirectory'));
  assert.ok(!r.text.includes('\t"os"\n'));
  assert.ok(r.text.endsWith('\tExpect(err).NotTo(HaveOccurred())\n})\n'), r.text.slice(-200));
  assert.ok(r.text.includes('\t}\n\n\t// cfg is defined in this file globally.\n'));
  const back = r.text.replaceAll('simtest.Environment', 'envtest.Environment').replace(`\t"${SIMTEST_PACKAGE}"\n`, ENVTEST_IMPORT);
  const suiteWithoutLookup = suite
    .replace(/\t\/\/ Retrieve the first found binary directory[^]*?\n\t}\n\n/, '')
    .replace(/\n\/\/ getFirstFoundEnvTestBinaryDir locates[^]*$/, '')
    .replace('\t"os"\n', '');
  assert.equal(back, suiteWithoutLookup);
  assert.deepEqual(switchSuiteToSimtest(r.text), { kind: 'alreadySimtest' });
});

test('the webhook suite keeps envtest\'s import for envtest.WebhookInstallOptions', () => {
  const suite = scaffoldFile('internal/webhook/v1alpha1/webhook_suite_test.go');
  const r = switchSuiteToSimtest(suite);
  assert.equal(r.kind, 'switched');
  if (r.kind !== 'switched') return;
  assert.equal(r.envtestImportKept, true);
  assert.ok(r.text.includes(ENVTEST_IMPORT));
  assert.ok(r.text.includes('\t\tWebhookInstallOptions: envtest.WebhookInstallOptions{\n'));
  assert.ok(r.text.includes('\ttestEnv = &simtest.Environment{\n'));
  assert.equal(r.binaryLookupDropped, true);
  assert.ok(!r.text.includes('getFirstFoundEnvTestBinaryDir'));
  assert.deepEqual(switchSuiteToSimtest(r.text), { kind: 'alreadySimtest' });
});

test('a suite an earlier init go switched keeps no lookup of envtest\'s binaries; one the user wrote stays', () => {
  const earlier = scaffoldFile('internal/controller/suite_test.go').replaceAll('envtest.Environment', 'simtest.Environment');
  const r = switchSuiteToSimtest(earlier);
  assert.equal(r.kind, 'alreadySimtest');
  if (r.kind !== 'alreadySimtest') return;
  assert.ok(r.text !== undefined && !r.text.includes('getFirstFoundEnvTestBinaryDir'));
  const own = earlier.replace('testEnv.BinaryAssetsDirectory = getFirstFoundEnvTestBinaryDir()', 'testEnv.BinaryAssetsDirectory = "/opt/k8s"');
  assert.deepEqual(switchSuiteToSimtest(own), { kind: 'alreadySimtest' });
});

test('a test file without envtest.Environment is not touched; one in a comment or string does not count', () => {
  assert.deepEqual(switchSuiteToSimtest('package x\n\n// envtest.Environment is not used here\nvar s = "envtest.Environment"\n'), { kind: 'noEnvtest' });
});
