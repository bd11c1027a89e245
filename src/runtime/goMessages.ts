import { isAbsolute, join } from 'node:path';

// What a Go controller author reads when their program cannot be followed: no Go toolchain, a build
// error (go's own output, with paths an editor can open), or a program that never connects.

export const CONTROLLERLAB_IMPORT = 'github.com/controller-lab/controller-lab/go/controllerlab';

export function goNotFoundMessage(go: string): string {
  return (
    `the Go toolchain was not found (\`${go}\` is not on the PATH). Controller Lab builds Go controllers with \`go build\`: ` +
    // Debian's and Ubuntu's golang-go trail the Go that controller-runtime's modules need by years.
    'install Go 1.25 or newer from https://go.dev/doc/install (or `brew install go`) and make sure `go version` works in the shell that starts Controller Lab'
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

/**
 * Why a controller-runtime main stops at once outside a cluster, read off its output, and what to
 * do. A kubebuilder main with webhooks, on a cluster Controller Lab did not start: its webhook
 * server wants the serving certificate cert-manager makes there (`open
 * /tmp/k8s-webhook-server/serving-certs/tls.crt: no such file or directory`), and leaves the
 * webhooks out with ENABLE_WEBHOOKS=false. On a simulated cluster it started, what kept the
 * webhooks from being served (a port taken, unreadable webhook configurations). A manager with leader
 * election on (`--leader-elect`) and no LeaderElectionNamespace: controller-runtime reads the
 * namespace for its Lease from a Pod's service account, and NewManager fails without one.
 */
const EXIT_HINTS: readonly [RegExp, string | ((m: RegExpExecArray) => string)][] = [
  // What controllerlab.Wrap could not do for the program's webhooks (go/controllerlab/webhooks.go) says itself why.
  [/"error": ?"controller-lab: ((?:[^"\\]|\\.)*)"/, (m) => `its webhooks could not be served: ${(m[1] ?? '').replaceAll('\\"', '"')}`],
  [/listen tcp ([\d.:[\]a-f]+): bind: address already in use/, (m) => `one of its servers could not listen on ${m[1]}: another program is using that port`],
  [
    /tls\.crt: no such file or directory/,
    'its webhook server found no serving certificate (cert-manager makes it in a cluster; Controller Lab makes one only for a simulated cluster it starts, `run --sim` or `check`): run it with ENABLE_WEBHOOKS=false, which a kubebuilder main reads to leave its webhooks out',
  ],
  [
    /unable to find leader election namespace: not running in-cluster/,
    "its leader election (--leader-elect) has no namespace for its Lease: controller-runtime reads it from a Pod's service account, and outside a cluster there is none. Run it without --leader-elect, or set LeaderElectionNamespace in its ctrl.Options (the namespace it is deployed to)",
  ],
];

export function goExitHint(output: string): string | undefined {
  for (const [pattern, hint] of EXIT_HINTS) {
    const m = pattern.exec(output);
    if (m) return typeof hint === 'string' ? hint : hint(m);
  }
  return undefined;
}

/** The last lines a program printed, for a failure said where its output is not shown (check's runs). */
export class OutputTail {
  private readonly kept: string[] = [];
  private partial = '';
  private readonly max: number;

  constructor(max = 10) {
    this.max = max;
  }

  add(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) this.kept.push(line.length > 400 ? `${line.slice(0, 400)}…` : line);
    this.kept.splice(0, Math.max(0, this.kept.length - this.max));
  }

  lines(): string[] {
    return this.partial.trim() ? [...this.kept, this.partial].slice(-this.max) : [...this.kept];
  }
}
