import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withLoopbackProbes } from '../../../src/runtime/goProgramArgs.ts';

// kubebuilder's main.go binds its health probes to :8081 on every interface; run by Controller Lab
// it gets a free loopback port instead, unless the user chose an address or the program has no such flag.

const KUBEBUILDER_FLAG = 'flag.StringVar(&probeAddr, "health-probe-bind-address", ":8081", "The address the probe endpoint binds to.")';

function mainPackage(source: string): { dir: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'cl-probe-'));
  writeFileSync(join(dir, 'main.go'), `package main\n\nfunc main() {\n\t${source}\n}\n`);
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

test('a program with kubebuilder\'s probe flag gets a loopback address after its own arguments', () => {
  const p = mainPackage(KUBEBUILDER_FLAG);
  try {
    assert.deepEqual(withLoopbackProbes(p.dir, ['--leader-elect=false']), ['--leader-elect=false', '--health-probe-bind-address=127.0.0.1:0']);
  } finally {
    p.dispose();
  }
});

test('an address the user gave, in any of the flag package\'s spellings, is kept', () => {
  const p = mainPackage(KUBEBUILDER_FLAG);
  try {
    for (const args of [['--health-probe-bind-address', ':9090'], ['--health-probe-bind-address=:9090'], ['-health-probe-bind-address=:9090'], ['-health-probe-bind-address', '0']]) {
      assert.deepEqual(withLoopbackProbes(p.dir, args), args);
    }
  } finally {
    p.dispose();
  }
});

test('a program without the flag, or named by package path, gets nothing it would refuse', () => {
  const p = mainPackage('println("no flags here")');
  try {
    assert.deepEqual(withLoopbackProbes(p.dir, []), []);
    assert.deepEqual(withLoopbackProbes('example.com/op/cmd', []), []);
  } finally {
    p.dispose();
  }
});
