import { fileURLToPath } from 'node:url';
import type { CallSite } from '../../controllerProtocol/index.ts';

// The line of the controller's code that called a client method: the frame just above `method` in
// the stack (source-mapped to the user's .ts file, as the host runs with --enable-source-maps).
// One frame only, so a write pays a few microseconds, not a whole stack.

export function callerOf(method: (...args: never[]) => unknown): CallSite | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 1;
  const holder: { stack?: string } = {};
  try {
    Error.captureStackTrace(holder, method);
  } finally {
    Error.stackTraceLimit = limit;
  }
  return parseFrame(holder.stack?.split('\n')[1] ?? '');
}

/** `    at reconcile (/x/controller.ts:12:5)` or `    at /x/controller.ts:12:5` → file and line. */
export function parseFrame(line: string): CallSite | undefined {
  const m = /^\s*at (?:(.+?) \()?(.+?):(\d+):\d+\)?$/.exec(line);
  if (!m) return undefined;
  const file = (m[2] as string).startsWith('file://') ? fileURLToPath(m[2] as string) : (m[2] as string);
  return { file, line: Number(m[3]), ...(m[1] ? { function: m[1].replace(/^async /, '') } : {}) };
}
