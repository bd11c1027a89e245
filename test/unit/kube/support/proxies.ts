import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

// Real proxies on 127.0.0.1:0 — an HTTP CONNECT proxy and a SOCKS5 one — that resolve names from
// their own table (`kube.test` → 127.0.0.1), like a corporate proxy that knows names the client
// cannot resolve: a request for such a name succeeds only through them. Each records what it was
// asked to reach.

export interface TestProxy {
  url: string;
  /** `host:port` of every tunnel asked for, in order, as the client named it. */
  targets: string[];
  /** The Proxy-Authorization header of every CONNECT (empty string when absent). */
  authorizations: string[];
  close(): Promise<void>;
}

export type HostTable = Record<string, string>;

export async function startConnectProxy(hosts: HostTable): Promise<TestProxy> {
  const proxy = recorder(http.createServer((req, res) => res.writeHead(405).end()), 'http');
  proxy.server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    proxy.targets.push(target);
    proxy.authorizations.push(req.headers['proxy-authorization'] ?? '');
    const at = target.lastIndexOf(':');
    const address = resolve(hosts, target.slice(0, at));
    if (!address) return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    splice(client, Number(target.slice(at + 1)), address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      return head;
    });
  });
  return proxy.listen();
}

/** SOCKS5, no authentication, CONNECT only. Each handshake message is read as one chunk (fine on loopback). */
export async function startSocks5Proxy(hosts: HostTable): Promise<TestProxy> {
  const proxy = recorder(net.createServer(), 'socks5');
  proxy.server.on('connection', (client: net.Socket) => {
    client.on('error', () => client.destroy());
    client.once('data', () => {
      client.write(Buffer.from([0x05, 0x00]));
      client.once('data', (request: Buffer) => {
        const { host, port } = socksTarget(request);
        proxy.targets.push(`${host}:${port}`);
        const address = resolve(hosts, host);
        const reply = (code: number) => Buffer.from([0x05, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);
        if (!address) return void client.end(reply(0x04)); // host unreachable
        splice(client, port, address, () => {
          client.write(reply(0x00));
          return Buffer.alloc(0);
        });
      });
    });
  });
  return proxy.listen();
}

function resolve(hosts: HostTable, host: string): string | undefined {
  const bare = host.replace(/^\[|\]$/g, '');
  return hosts[bare] ?? (net.isIP(bare) ? bare : undefined);
}

// ATYP 1: IPv4, 3: a name (the client let the proxy resolve it), 4: IPv6.
function socksTarget(request: Buffer): { host: string; port: number } {
  const atyp = request[3];
  if (atyp === 0x03) {
    const length = request[4] ?? 0;
    return { host: request.subarray(5, 5 + length).toString('latin1'), port: request.readUInt16BE(5 + length) };
  }
  if (atyp === 0x01) return { host: [...request.subarray(4, 8)].join('.'), port: request.readUInt16BE(8) };
  const groups = [];
  for (let i = 4; i < 20; i += 2) groups.push(request.readUInt16BE(i).toString(16));
  return { host: groups.join(':'), port: request.readUInt16BE(20) };
}

/** Dials the upstream; once connected, `accepted` answers the client and returns bytes already read. */
function splice(client: net.Socket, port: number, address: string, accepted: () => Buffer): void {
  const upstream = net.connect(port, address, () => {
    upstream.write(accepted());
    upstream.pipe(client).pipe(upstream);
  });
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
}

function recorder<S extends net.Server>(server: S, scheme: string) {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const proxy = {
    server,
    url: '',
    targets: [] as string[],
    authorizations: [] as string[],
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
    listen: async (): Promise<TestProxy> => {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      proxy.url = `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return proxy;
    },
  };
  return proxy;
}
