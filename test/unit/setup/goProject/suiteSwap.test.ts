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
  // The rest (BinaryAssetsDirectory, the comments that mention envtest) stays as it was.
  const back = r.text.replaceAll('simtest.Environment', 'envtest.Environment').replace(`\t"${SIMTEST_PACKAGE}"\n`, ENVTEST_IMPORT);
  assert.equal(back, suite);
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
  assert.equal(r.text.replaceAll('simtest.Environment', 'envtest.Environment').replace(`\t"${SIMTEST_PACKAGE}"\n`, ''), suite);
  assert.deepEqual(switchSuiteToSimtest(r.text), { kind: 'alreadySimtest' });
});

test('a test file without envtest.Environment is not touched; one in a comment or string does not count', () => {
  assert.deepEqual(switchSuiteToSimtest('package x\n\n// envtest.Environment is not used here\nvar s = "envtest.Environment"\n'), { kind: 'noEnvtest' });
});
