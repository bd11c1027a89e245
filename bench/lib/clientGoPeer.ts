import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RenderedStream } from './streamServer.ts';

// The client-go peer (bench/client-go-informer): built once per benchmark run with the Go toolchain
// into a temporary directory, then used to render each stream as protobuf and to run a client-go
// shared informer as a contender.

const run = promisify(execFile);
const SOURCE = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'client-go-informer');

export interface ClientGoPeer {
  binary: string;
  /** Adds the stream's protobuf rendering (what kube-apiserver sends a client asking for protobuf). */
  renderProtobuf(stream: RenderedStream, work: string): Promise<void>;
}

/** Builds the peer; undefined (with the reason on stderr) when Go or its modules are not available. */
export async function buildClientGoPeer(work: string): Promise<ClientGoPeer | undefined> {
  const binary = path.join(work, 'client-go-informer');
  try {
    await run('go', ['build', '-o', binary, '.'], { cwd: SOURCE, maxBuffer: 16 << 20, timeout: 600_000 });
  } catch (err) {
    console.error(`client-go peer not built, its rows are left out: ${(err as Error).message.split('\n').slice(0, 3).join(' ')}`);
    return undefined;
  }
  return {
    binary,
    async renderProtobuf(stream, dir) {
      const list = path.join(dir, 'list.json');
      const watch = path.join(dir, 'watch.jsonl');
      writeFileSync(list, stream.list);
      writeFileSync(watch, stream.watch);
      await run(binary, ['render', '--resource', stream.spec.workload ?? 'configmaps', '--list', list, '--watch', watch, '--out', dir], { maxBuffer: 16 << 20 });
      stream.protobuf = { list: readFileSync(path.join(dir, 'list.pb')), watch: readFileSync(path.join(dir, 'watch.pb')) };
    },
  };
}

/**
 * client-go 1.35+ starts informers with a streaming list (WatchListClient) when the server supports
 * it; the benchmark server serves list + watch, as our informer uses them, so the peer does too.
 */
export const CLIENT_GO_ENV = { ...process.env, KUBE_FEATURE_WatchListClient: 'false' };
