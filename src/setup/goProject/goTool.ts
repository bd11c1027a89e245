import { execFile } from 'node:child_process';
import { join } from 'node:path';

// The Go toolchain, as the setup uses it: `go mod edit`, `go mod tidy`, `gofmt -w`. Behind an
// interface so a test can say which commands ran; the real one is whatever `go` the PATH has.

export interface GoTool {
  /** Runs `go <args>` in `cwd`; rejects with a GoCommandFailed naming the command and what it printed. */
  go(args: string[], cwd: string): Promise<string>;
  /** `gofmt -w` on these files. */
  gofmt(files: string[], cwd: string): Promise<void>;
}

export const INSTALL_GO = 'install Go 1.25 or newer (https://go.dev/doc/install) and make sure `go` is on the PATH';

export class GoNotFound extends Error {
  constructor(tool: string) {
    super(`${tool} is not on the PATH: ${INSTALL_GO}`);
    this.name = 'GoNotFound';
  }
}

export class GoCommandFailed extends Error {
  constructor(command: string, output: string) {
    const tail = output.trim().split('\n').slice(-12).join('\n');
    super(`${command} failed${tail ? `:\n${tail}` : ''}`);
    this.name = 'GoCommandFailed';
  }
}

function run(file: string, args: string[], cwd: string, shown: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if ((err as NodeJS.ErrnoException | null)?.code === 'ENOENT') reject(new GoNotFound(file));
      else if (err) reject(new GoCommandFailed(shown, `${stderr}${stdout}`));
      else resolve(stdout);
    });
  });
}

/** The `go` on the PATH (and its gofmt: on the PATH, else beside it in GOROOT). */
export function systemGo(): GoTool {
  const go = (args: string[], cwd: string) => run('go', args, cwd, `go ${args.join(' ')}`);
  return {
    go,
    async gofmt(files, cwd) {
      const args = ['-w', ...files];
      try {
        await run('gofmt', args, cwd, `gofmt ${args.join(' ')}`);
      } catch (err) {
        if (!(err instanceof GoNotFound)) throw err;
        const beside = join((await go(['env', 'GOROOT'], cwd)).trim(), 'bin', 'gofmt');
        await run(beside, args, cwd, `gofmt ${args.join(' ')}`);
      }
    },
  };
}
