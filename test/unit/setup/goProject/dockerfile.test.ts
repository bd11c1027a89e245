import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyModuleBeforeDownload, reincludeModuleFiles } from '../../../../src/setup/goProject/dockerfile.ts';
import { scaffoldFile } from './fixtures.ts';

test('kubebuilder\'s Dockerfile copies the module before go mod download', () => {
  const dockerfile = scaffoldFile('Dockerfile');
  const r = copyModuleBeforeDownload(dockerfile);
  assert.equal(r.kind, 'changed');
  if (r.kind !== 'changed') return;
  const at = 'COPY go.sum go.sum\n';
  const added = "# Controller Lab's Go module: go.mod replaces it with this local copy\nCOPY controller-lab/go/ controller-lab/go/\n";
  assert.equal(r.text, dockerfile.replace(at, at + added));
  assert.ok(r.text.indexOf('COPY controller-lab/go/') < r.text.indexOf('RUN go mod download'));
  assert.equal(copyModuleBeforeDownload(r.text).kind, 'unchanged');
});

test('a Dockerfile that copies everything before downloading, or never downloads, is left alone', () => {
  assert.equal(copyModuleBeforeDownload('FROM golang\nCOPY . .\nRUN go mod download\n').kind, 'unchanged');
  assert.equal(copyModuleBeforeDownload('FROM golang\nCOPY go.mod go.sum ./\nRUN go build ./...\n').kind, 'unchanged');
});

test('kubebuilder\'s .dockerignore lets the copy\'s go.mod and go.sum in', () => {
  const ignore = scaffoldFile('.dockerignore');
  const r = reincludeModuleFiles(ignore);
  assert.equal(r.kind, 'changed');
  if (r.kind !== 'changed') return;
  assert.ok(r.text.startsWith(ignore));
  assert.equal(r.text.slice(ignore.length), "\n# Re-include the go.mod and go.sum of Controller Lab's Go module (go.mod replaces it with controller-lab/go)\n!controller-lab/go/go.mod\n!controller-lab/go/go.sum\n");
  assert.equal(reincludeModuleFiles(r.text).kind, 'unchanged');
  assert.equal(reincludeModuleFiles('bin/\n*.out\n').kind, 'unchanged');
});
