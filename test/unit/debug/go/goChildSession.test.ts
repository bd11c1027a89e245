import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goChildConfiguration, resolveGoDebugger } from '../../../../src/debug/go/goChildSession.ts';

// `"goDebugger": "vscode-go"`: the launch configuration as the editor resolves it with and
// without VS Code's Go extension, and the child session configuration the Go extension gets.

const LAUNCH = { type: 'controller-lab', request: 'launch', name: 'Go', program: '/ws/cmd', cluster: 'sim' };

test('with the Go extension installed, vscode-go keeps the hand-over and runs the program under Delve', () => {
  const r = resolveGoDebugger({ ...LAUNCH, goDebugger: 'vscode-go' }, true);
  assert.equal(r.message, undefined);
  assert.deepEqual(r.config, { ...LAUNCH, goDebugger: 'vscode-go', lineBreakpoints: true });
});

test('without the Go extension, vscode-go says so and falls back to Controller Lab\'s own Delve connection', () => {
  const r = resolveGoDebugger({ ...LAUNCH, goDebugger: 'vscode-go' }, false);
  assert.match(r.message ?? '', /Go extension \(golang\.go\), which is not installed/);
  assert.match(r.message ?? '', /Controller Lab's own Delve connection/);
  assert.deepEqual(r.config, { ...LAUNCH, goDebugger: 'controller-lab', lineBreakpoints: true });
});

test('no goDebugger, or controller-lab, leaves the configuration as it is; an unknown value is named and replaced', () => {
  assert.deepEqual(resolveGoDebugger({ ...LAUNCH }, false), { config: LAUNCH });
  assert.deepEqual(resolveGoDebugger({ ...LAUNCH, goDebugger: 'controller-lab' }, true), { config: { ...LAUNCH, goDebugger: 'controller-lab' } });
  const r = resolveGoDebugger({ ...LAUNCH, goDebugger: 'gdb' }, true);
  assert.match(r.message ?? '', /"goDebugger": "gdb" is not known/);
  assert.equal(r.config.goDebugger, 'controller-lab');
});

test('the child session is the Go extension\'s remote attach over DAP to the Delve that runs the program', () => {
  assert.deepEqual(goChildConfiguration({ host: '127.0.0.1', port: 40123, name: 'cmd (Go)', cwd: '/ws' }), {
    type: 'go',
    request: 'attach',
    name: 'cmd (Go)',
    mode: 'remote',
    debugAdapter: 'dlv-dap',
    host: '127.0.0.1',
    port: 40123,
    cwd: '/ws',
    stopOnEntry: false,
  });
});
