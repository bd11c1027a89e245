import { isAbsolute, join } from 'node:path';

// What a Go controller author reads when their program cannot be followed: no Go toolchain, a build
// error (go's own output, with paths an editor can open), or a program that never connects.

export const CONTROLLERLAB_IMPORT = 'github.com/controller-lab/controller-lab/go/controllerlab';

export function goNotFoundMessage(go: string): string {
  return (
    `the Go toolchain was not found (\`${go}\` is not on the PATH). Controller Lab builds Go controllers with \`go build\`: ` +
    'install Go (https://go.dev/doc/install, or your package manager: apt install golang-go, brew install go) and make sure `go version` works in the shell that starts Controller Lab'
  );
}

/** go's output, its `file.go:line:col:` paths made absolute (relative to the module, where it ran). */
export function describeGoBuildFailure(output: string, moduleDir: string): string {
  const lines = output
    .trimEnd()
    .split('\n')
    .map((line) => line.replace(/^(\S+\.go)(:\d+(?::\d+)?:)/, (_m, file: string, at: string) => `${isAbsolute(file) ? file : join(moduleDir, file)}${at}`));
  return `go build failed:\n${lines.join('\n')}`;
}

/** The two lines a program needs to be followed. */
export const WRAP_HINT = `does its main.go call controllerlab.Wrap(mgr)? Add two lines: import "${CONTROLLERLAB_IMPORT}", and right after ctrl.NewManager(…): mgr = controllerlab.Wrap(mgr)`;

export function neverConnectedMessage(timeoutMs: number): string {
  return (
    `the Go program did not connect to Controller Lab within ${Math.round(timeoutMs / 100) / 10} s: ${WRAP_HINT} ` +
    '(a program that needs longer to start: raise the connect timeout, --connect-timeout SECONDS or "connectTimeoutMs")'
  );
}
