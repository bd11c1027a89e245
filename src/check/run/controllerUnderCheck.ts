import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGoProgram, cachedProgramPath, controllerTarget, ControllerSession, notAControllerFile, type ControllerTarget } from '../../runtime/index.ts';
import type { SimClusterApi } from '../../sim/index.ts';

// The controller a check runs again and again: a Go program is built once, and each run (and each
// restart within a run) starts that binary. It runs as a user of its own, so the simulated cluster
// can tell its requests and watches from everyone else's (the scenario's, the sim's own
// controllers'): the user named with --as (held to its RBAC), or otherwise a user that check makes
// up and binds to cluster-admin.

export const CHECKED_USER = 'controller-lab:checked-controller';

export interface ControllerUnderCheckOptions {
  /** As `controller-lab run` takes it: a TypeScript file, or a Go program (directory, main.go, package path). */
  program: string;
  /** A Go program's own arguments. */
  args?: string[];
  /** Run as this user (its RBAC applies); default: CHECKED_USER, a cluster admin. */
  as?: string;
  cwd?: string;
}

export class ControllerUnderCheck {
  readonly target: ControllerTarget;
  readonly user: string;
  private readonly options: ControllerUnderCheckOptions;
  private binaryDir: string | undefined;
  private binary: string | undefined;

  constructor(options: ControllerUnderCheckOptions) {
    this.options = options;
    this.target = controllerTarget(options.program, options.cwd);
    this.user = options.as ?? CHECKED_USER;
  }

  /** Makes the cluster ready for the controller: its own user (not one named with --as) is a cluster admin. */
  admit(cluster: SimClusterApi): void {
    if (!this.options.as) admitCheckedUser(cluster);
  }

  /**
   * Builds a Go program once (resolves undefined when built, else go's message); for TypeScript,
   * says what is wrong with a path that is no file, so that is bad input before any run starts.
   */
  async prepare(): Promise<string | undefined> {
    if (this.target.language !== 'go') return notAControllerFile(this.target.file);
    if (this.binary) return undefined;
    // Without DWARF and the symbol table (-s -w) the link takes half the time; nobody debugs the
    // check's binary, and a panic's stack trace still names its functions.
    const build = { packageDir: this.target.packageDir, moduleDir: this.target.moduleDir, buildFlags: ['-ldflags=-s -w'] };
    let binary = cachedProgramPath(build);
    if (!binary) {
      this.binaryDir = mkdtempSync(join(tmpdir(), 'controller-lab-check-'));
      binary = join(this.binaryDir, 'controller');
    }
    const failure = await buildGoProgram(build, binary);
    if (failure === undefined) this.binary = binary;
    return failure;
  }

  /** A new session of the controller against the cluster of `kubeconfig` (not started); a perturbed run seeds its jitter. */
  session(kubeconfig: string, jitterSeed?: number): ControllerSession {
    return new ControllerSession({
      file: this.options.program,
      kubeconfig,
      runAs: this.user,
      mirrorCache: false,
      ...(jitterSeed === undefined ? {} : { jitterSeed }),
      // Dozens of short runs: not the views' business (the findings are).
      listed: false,
      ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
      go: { args: this.options.args ?? [], localWebhooks: true, ...(this.binary ? { binary: this.binary } : {}) },
    });
  }

  dispose(): void {
    if (this.binaryDir) rmSync(this.binaryDir, { recursive: true, force: true });
  }
}

/** Binds CHECKED_USER to cluster-admin, so a controller run as it may do what it would as an admin. */
export function admitCheckedUser(cluster: SimClusterApi): void {
  cluster.create({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings' }, '', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'controller-lab:checked-controller' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: CHECKED_USER }],
  });
}
