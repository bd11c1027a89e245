import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

// The mocha loader the VS Code test host calls (extensionTestsPath). It runs every bundled
// *.test.cjs beside it or below it and prints one parseable result line
// (`CONTROLLER_LAB_INTEGRATION_RESULT passed=N failed=N`), which the runner outside VS Code reads
// through the smoke-test driver's console bridge. CONTROLLER_LAB_TEST_GREP narrows the run.

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  const grep = process.env.CONTROLLER_LAB_TEST_GREP;
  if (grep) mocha.grep(grep);
  const files = readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.cjs'))
    .sort();
  for (const file of files) mocha.addFile(join(__dirname, file));
  return new Promise((resolve, reject) => {
    let passed = 0;
    let failed = 0;
    try {
      const runner = mocha.run(() => {
        console.log(`CONTROLLER_LAB_INTEGRATION_RESULT passed=${passed} failed=${failed}`);
        if (failed > 0) reject(new Error(`${failed} integration test(s) failed`));
        else resolve();
      });
      runner.on('pass', () => passed++);
      runner.on('fail', () => failed++);
    } catch (err) {
      // A test file that throws on load is a failure, never a silent pass.
      console.log(`CONTROLLER_LAB_INTEGRATION_RESULT passed=${passed} failed=${failed + 1}`);
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
