import { randomBytes } from 'node:crypto';
import { request } from 'node:http';

// Lets a process that waits for a debugger (`--inspect-brk`, `inspector.waitForDebugger()`) run on
// when none attached: connects to its inspector as a DevTools client would and sends
// `Runtime.runIfWaitingForDebugger`, the command a debugger sends once its breakpoints are set.
// A minimal WebSocket client over node:http, so it works in any Node or Electron host.

const COMMAND = JSON.stringify({ id: 1, method: 'Runtime.runIfWaitingForDebugger' });

/** One masked client frame (RFC 6455 §5.2); only short payloads are ever sent here. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  if (payload.length > 125) throw new Error('inspector frame too long');
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] as number)));
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, masked]);
}

/** Resolves once the inspector acknowledged the command; rejects on a connection error or after `timeoutMs`. */
export function releaseInspectorWait(wsUrl: string, timeoutMs = 5000): Promise<void> {
  const url = new URL(wsUrl);
  return new Promise<void>((resolve, reject) => {
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': randomBytes(16).toString('base64') },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`the inspector at ${wsUrl} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('upgrade', (_res, socket) => {
      let answered = '';
      socket.on('data', (chunk: Buffer) => {
        answered += chunk.toString('latin1');
        if (!answered.includes('"id":1')) return;
        clearTimeout(timer);
        socket.end(clientFrame(0x8, Buffer.alloc(0)));
        resolve();
      });
      socket.on('error', () => {});
      socket.write(clientFrame(0x1, Buffer.from(COMMAND)));
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      reject(new Error(`the inspector at ${wsUrl} refused the connection (HTTP ${res.statusCode})`));
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  });
}
