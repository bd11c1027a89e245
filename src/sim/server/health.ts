// /healthz, /livez and /readyz as kube-apiserver answers them: "ok", or 500 with one line per check.
// Liveness is the process serving at all; readiness also needs the state dir to take writes (a
// full disk makes the sim not ready, with the reason, while reads keep working).
import type { ServerResponse } from 'node:http';
import { sendText } from './responses.ts';

/** `path`: /healthz, /livez, /readyz or one of their checks (/readyz/persistence). */
export function sendHealth(res: ServerResponse, path: string, persistenceProblem: string | undefined): void {
  const [endpoint, sub] = path.replace(/^\/+|\/+$/g, '').split('/', 2);
  if (endpoint !== 'readyz' || (sub !== undefined && sub !== 'persistence') || persistenceProblem === undefined) {
    sendText(res, 200, 'ok');
    return;
  }
  const reason = persistenceProblem.replace(/\s+/g, ' ');
  if (sub === 'persistence') {
    sendText(res, 500, `internal server error: ${reason}\n`);
    return;
  }
  sendText(res, 500, `[+]ping ok\n[-]persistence failed: ${reason}\nreadyz check failed\n`);
}
