import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DELVE_INSTALL, findDelve } from '../../../../src/debug/go/delveBinary.ts';

// Where Controller Lab finds dlv: an explicit dlvPath, the PATH, then $(go env GOBIN) and
// $(go env GOPATH)/bin (where `go install` puts it, often not on an editor's PATH).

test('dlv is found in GOPATH/bin when it is not on the PATH; missing, the error says how to install it', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-dlv-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // A stand-in `go` that answers `go env GOBIN GOPATH` with an empty GOBIN and our GOPATH.
  const fakeGo = join(dir, 'go');
  writeFileSync(fakeGo, `#!/bin/sh\nprintf '\\n%s\\n' '${dir}/gopath'\n`);
  chmodSync(fakeGo, 0o755);
  const env = { PATH: '' };
  assert.throws(() => findDelve({ env, goBinary: fakeGo }), (err: Error) => err.message.includes(DELVE_INSTALL));

  const installed = join(dir, 'gopath', 'bin', 'dlv');
  // go install's default location.
  mkdirSync(join(dir, 'gopath', 'bin'), { recursive: true });
  writeFileSync(installed, '#!/bin/sh\n');
  chmodSync(installed, 0o755);
  assert.equal(findDelve({ env, goBinary: fakeGo }), installed);

  assert.throws(() => findDelve({ explicit: join(dir, 'nope') }), /dlvPath .*nope is not an executable file/);
  assert.equal(findDelve({ explicit: installed }), installed);
});
