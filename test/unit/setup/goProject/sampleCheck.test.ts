import { test } from 'node:test';
import assert from 'node:assert/strict';
import { samplesWithNullSpec, withEmptySpec } from '../../../../src/setup/goProject/sampleCheck.ts';

test('kubebuilder\'s sample (`spec:` with only a comment) has a null spec; one with fields or {} has not', () => {
  const scaffolded = 'apiVersion: cache.example.com/v1alpha1\nkind: Memcached\nmetadata:\n  name: memcached-sample\nspec:\n  # TODO(user): Add fields here\n';
  assert.deepEqual(samplesWithNullSpec(scaffolded), ['Memcached memcached-sample']);
  assert.deepEqual(samplesWithNullSpec(scaffolded.replace('spec:\n', 'spec: {}\n')), []);
  assert.deepEqual(samplesWithNullSpec(`${scaffolded.replace('spec:\n', 'spec:\n  size: 1\n')}---\nresources: [a.yaml]\n`), []);
});

test('a sample still as kubebuilder scaffolds it gets spec: {} with its comment kept; an edited one is not rewritten', () => {
  const scaffolded = 'apiVersion: cache.example.com/v1alpha1\nkind: Memcached\nmetadata:\n  name: memcached-sample\nspec:\n  # TODO(user): Add fields here\n';
  assert.equal(withEmptySpec(scaffolded), scaffolded.replace('spec:\n', 'spec: {}\n'));
  const two = `${scaffolded}---\n${scaffolded.replace('memcached-sample', 'second')}`;
  assert.deepEqual(samplesWithNullSpec(withEmptySpec(withEmptySpec(two) ?? '') ?? ''), []);
  assert.equal(withEmptySpec(scaffolded.replace('spec:\n', 'spec:\n  size: 1\n')), undefined);
  assert.equal(withEmptySpec('kind: X\nspec: ~\n'), undefined);
});
