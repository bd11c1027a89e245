import { BlockList, isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { KubeconfigError } from './errors.ts';

// The proxy client-go would use when the kubeconfig names none: its default transport asks Go's
// http.ProxyFromEnvironment (golang.org/x/net/http/httpproxy), whose matching rules these are — so
// a cluster kubectl reaches through a corporate proxy is reached the same way here. One difference:
// Go silently ignores a proxy value it cannot parse; we say so, since the user would not guess why.

/** What the NO_PROXY rules look at: the server's host (lower case, no IPv6 brackets) and port. */
interface Target {
  host: string;
  port: string;
  family: 'ipv4' | 'ipv6' | undefined;
}

// Go never proxies these, whatever the environment says; the simulated cluster (127.0.0.1) relies on it.
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

// What our proxy agents speak (hpagent, socks-proxy-agent); Go's transport speaks http, https and socks5.
const SCHEMES = new Set(['http:', 'https:', 'socks5:', 'socks5h:', 'socks4:', 'socks4a:', 'socks:']);

/**
 * The proxy URL for requests to `server` according to HTTPS_PROXY / HTTP_PROXY and NO_PROXY (upper
 * case first), or undefined for a direct connection. Throws KubeconfigError naming the variable
 * when the proxy it would use is not a proxy URL.
 */
export function environmentProxy(server: URL, env: NodeJS.ProcessEnv): string | undefined {
  const [upper, lower] = server.protocol === 'https:' ? ['HTTPS_PROXY', 'https_proxy'] : ['HTTP_PROXY', 'http_proxy'];
  // As in Go, an empty variable counts as unset, so an empty upper-case one lets the lower-case one through.
  const name = env[upper] ? upper : env[lower] ? lower : undefined;
  if (!name) return undefined;
  const target = targetOf(server);
  if (isLoopback(target) || bypassed(target, env.NO_PROXY || env.no_proxy || '')) return undefined;
  return parseProxy(name, env[name] ?? '');
}

function targetOf(server: URL): Target {
  // URL already lower-cases the host and canonicalises IPv4 (0x7f.1 is 127.0.0.1).
  const host = server.hostname.replace(/^\[|\]$/g, '');
  const port = server.port || (server.protocol === 'https:' ? '443' : '80');
  return { host, port, family: ipFamily(host) };
}

function isLoopback(target: Target): boolean {
  return target.host === 'localhost' || (target.family !== undefined && LOOPBACK.check(target.host, target.family));
}

/** Whether any comma-separated NO_PROXY entry covers the target. Malformed entries are skipped, as in Go. */
function bypassed(target: Target, noProxy: string): boolean {
  return noProxy.split(',').some((entry) => covers(entry.trim().toLowerCase(), target));
}

function covers(entry: string, target: Target): boolean {
  if (entry === '') return false;
  if (entry === '*') return true;
  if (entry.includes('/')) return cidrCovers(entry, target);
  const { host, port } = splitHostPort(entry);
  if (host === '' || (port !== '' && port !== target.port)) return false;
  const family = ipFamily(host);
  if (family) return target.family !== undefined && sameAddress(host, family, target);
  // `*.example.com` and `.example.com` mean the subdomains only; `example.com` the name and its subdomains.
  const domain = host.startsWith('*.') ? host.slice(1) : host;
  const subdomainsOnly = domain.startsWith('.');
  const name = subdomainsOnly ? domain.slice(1) : domain;
  const ascii = domainToASCII(name) || name;
  return (!subdomainsOnly && target.host === ascii) || target.host.endsWith(`.${ascii}`);
}

function cidrCovers(entry: string, target: Target): boolean {
  const [network = '', bits = ''] = entry.split('/');
  const family = ipFamily(network);
  const prefix = Number(bits);
  if (!family || !/^\d+$/.test(bits) || prefix > (family === 'ipv4' ? 32 : 128) || target.family === undefined) return false;
  const subnet = new BlockList();
  subnet.addSubnet(network, prefix, family);
  return subnet.check(target.host, target.family);
}

// BlockList compares addresses, not spellings: ::1 and 0::1, or 10.0.0.1 and ::ffff:10.0.0.1, are one.
function sameAddress(address: string, family: 'ipv4' | 'ipv6', target: Target): boolean {
  const one = new BlockList();
  one.addAddress(address, family);
  return one.check(target.host, target.family);
}

/** `host:port`, `[v6]:port`, `[v6]`, a bare IPv6 address or a name. */
function splitHostPort(entry: string): { host: string; port: string } {
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1] ?? '', port: bracketed[2] ?? '' };
  const colon = entry.indexOf(':');
  if (colon < 0 || colon !== entry.lastIndexOf(':')) return { host: entry, port: '' };
  return { host: entry.slice(0, colon), port: entry.slice(colon + 1) };
}

function ipFamily(host: string): 'ipv4' | 'ipv6' | undefined {
  const version = isIP(host);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : undefined;
}

function parseProxy(name: string, value: string): string {
  const trimmed = value.trim();
  // Go reads a value without a scheme (`proxy.corp:3128`) as http://; URL would take `proxy.corp:` for one.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new KubeconfigError(`${name} is not a valid proxy URL: "${redacted(trimmed)}"`);
  }
  if (!SCHEMES.has(url.protocol)) {
    throw new KubeconfigError(`${name} has an unsupported proxy scheme "${url.protocol.slice(0, -1)}" (use http, https or socks5): "${redacted(trimmed)}"`);
  }
  if (!url.hostname) throw new KubeconfigError(`${name} names no proxy host: "${redacted(trimmed)}"`);
  return url.href;
}

// Proxy URLs often carry a password; an error message is no place for it.
function redacted(value: string): string {
  return value.replace(/^([^/]*\/\/[^/@:]*:)[^/@]*@/, '$1***@');
}
