// Child processes of a run: started with their output in a log file, stopped together at the end
// (also on Ctrl+C), so no server outlives the run that started it.
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();

export function start(command, args, { log, env = {}, cwd } = {}) {
  const fd = openSync(log, 'a');
  const child = spawn(command, args, { stdio: ['ignore', fd, fd], env: { ...process.env, ...env }, cwd });
  closeSync(fd);
  running.add(child);
  child.on('exit', () => running.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL after a grace period; resolves when the process is gone. */
export function stop(child, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.kill('SIGTERM');
  });
}

export async function stopAll() {
  await Promise.all([...running].reverse().map((c) => stop(c)));
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const c of running) c.kill('SIGKILL');
    process.exit(130);
  });
}

/** A port free on 127.0.0.1 at the time of asking. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it returns something truthy; fails with `what` after `timeoutMs`. */
export async function waitFor(what, check, { timeoutMs = 120_000, intervalMs = 500, child } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${what}: the process exited with ${child.exitCode}`);
    try {
      const result = await check();
      if (result) return result;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
