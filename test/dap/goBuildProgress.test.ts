import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { launch, startClient } from './dapClient.ts';
import { GO_EXAMPLE, GO_EXAMPLE_SCENARIO } from '../unit/runtime/support/goPrograms.ts';

// A Go program's first build takes minutes (ten for a kubebuilder project built for Delve): the
// Debug Console says every 20 s that it still builds, not one line and then silence. A `go` on the
// PATH whose `go build` takes 25 s stands in for a cold build.

test('a Go build that takes long says in the Debug Console that it still builds, and when it built', { timeout: 300_000 }, async () => {
  const realGo = execFileSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-slow-go-'));
  const shim = join(dir, 'go');
  writeFileSync(shim, `#!/bin/sh\nif [ "$1" = build ]; then sleep 25; fi\nexec '${realGo}' "$@"\n`);
  chmodSync(shim, 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${dir}${delimiter}${path ?? ''}`;
  const dc = await startClient();
  process.env.PATH = path;
  dc.defaultTimeout = 240_000;
  const printed: string[] = [];
  dc.on('output', (e: DebugProtocol.OutputEvent) => printed.push(e.body.output));
  try {
    const stopped = dc.waitForEvent('stopped');
    await launch(dc, { program: GO_EXAMPLE, scenario: GO_EXAMPLE_SCENARIO, stopOnEntry: true });
    await stopped;
    const text = printed.join('');
    assert.match(text, /^Building .*go build in /m, text);
    assert.match(text, /^ {2}still building \(2\d s; a first build of controller-runtime takes minutes, later ones seconds\)$/m, text);
    assert.match(text, /^built in \d+ s$/m, text);
  } finally {
    await dc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
