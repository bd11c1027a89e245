import { Environment } from '@marcbachmann/cel-js';
import { registerQuantity } from './quantityLibrary.ts';

// The CEL environment kube-apiserver 1.28 compiles CRD validation rules in: the standard library
// (macros, size, matches, timestamps, durations, optional types) plus the Kubernetes extension
// libraries (k8s.io/apiserver/pkg/cel/library: lists, regex, urls, quantity; cel-go's ext
// strings v0).

type CelList = unknown[];

const compare = (a: unknown, b: unknown): number => ((a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0);

function requireNonEmpty(list: CelList, name: string): void {
  if (list.length === 0) throw new Error(`${name} called on empty list`);
}

/** Regexes in rules are RE2; the patterns CRDs use mean the same in JavaScript. */
function regex(pattern: string, flags = ''): RegExp {
  try {
    return new RegExp(pattern, `u${flags}`);
  } catch (err) {
    throw new Error(`invalid regex: ${(err as Error).message}`, { cause: err });
  }
}

/** A parsed URL as library.URLs exposes it (url(), getScheme(), getHost(), ...). */
export class KubernetesUrl {
  readonly url: URL;
  constructor(url: URL) {
    this.url = url;
  }
}

function parseUrl(text: string): URL | undefined {
  // Absolute URIs and absolute paths only, as the library's url.ParseRequestURI accepts.
  try {
    return new URL(text);
  } catch {
    return text.startsWith('/') ? new URL(text, 'relative:/') : undefined;
  }
}

function registerStrings(env: Environment): void {
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const chars = [...s];
    if (i < 0n || i > BigInt(chars.length)) throw new Error(`index out of range: ${i}`);
    return chars[Number(i)] ?? '';
  });
  env.registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => s.split(from).join(to));
  env.registerFunction('string.replace(string, string, int): string', (s: string, from: string, to: string, n: bigint) => {
    if (n < 0n) return s.split(from).join(to);
    const parts = s.split(from);
    const limit = Number(n);
    return parts.slice(0, limit + 1).join(to) + (parts.length > limit + 1 ? from + parts.slice(limit + 1).join(from) : '');
  });
}

function registerLists(env: Environment): void {
  env.registerFunction('list.isSorted(): bool', (l: CelList) => l.every((v, i) => i === 0 || compare(l[i - 1], v) <= 0));
  env.registerFunction('list.sum(): dyn', (l: CelList) => (l.length === 0 ? 0n : (l as number[]).reduce((a, b) => a + b)));
  env.registerFunction('list.min(): dyn', (l: CelList) => {
    requireNonEmpty(l, 'min');
    return l.reduce((a, b) => (compare(b, a) < 0 ? b : a));
  });
  env.registerFunction('list.max(): dyn', (l: CelList) => {
    requireNonEmpty(l, 'max');
    return l.reduce((a, b) => (compare(b, a) > 0 ? b : a));
  });
  env.registerFunction('list.indexOf(dyn): int', (l: CelList, v: unknown) => BigInt(l.findIndex((x) => celEquals(x, v))));
  env.registerFunction('list.lastIndexOf(dyn): int', (l: CelList, v: unknown) => BigInt(l.findLastIndex((x) => celEquals(x, v))));
}

function registerRegex(env: Environment): void {
  env.registerFunction('string.find(string): string', (s: string, re: string) => s.match(regex(re))?.[0] ?? '');
  env.registerFunction('string.findAll(string): list<string>', (s: string, re: string) => [...s.matchAll(regex(re, 'g'))].map((m) => m[0]));
  env.registerFunction('string.findAll(string, int): list<string>', (s: string, re: string, n: bigint) => {
    const all = [...s.matchAll(regex(re, 'g'))].map((m) => m[0]);
    return n < 0n ? all : all.slice(0, Number(n));
  });
}

function registerUrls(env: Environment): void {
  env.registerType('net.URL', KubernetesUrl);
  env.registerFunction('isURL(string): bool', (s: string) => parseUrl(s) !== undefined);
  env.registerFunction('url(string): net.URL', (s: string) => {
    const parsed = parseUrl(s);
    if (!parsed) throw new Error(`URL parse error during conversion from string: ${s}`);
    return new KubernetesUrl(parsed);
  });
  const absolute = (u: KubernetesUrl): boolean => u.url.protocol !== 'relative:';
  env.registerFunction('net.URL.getScheme(): string', (u: KubernetesUrl) => (absolute(u) ? u.url.protocol.replace(/:$/, '') : ''));
  env.registerFunction('net.URL.getHost(): string', (u: KubernetesUrl) => (absolute(u) ? u.url.host : ''));
  env.registerFunction('net.URL.getHostname(): string', (u: KubernetesUrl) => (absolute(u) ? u.url.hostname.replace(/^\[(.*)\]$/, '$1') : ''));
  env.registerFunction('net.URL.getPort(): string', (u: KubernetesUrl) => (absolute(u) ? u.url.port : ''));
  env.registerFunction('net.URL.getEscapedPath(): string', (u: KubernetesUrl) => u.url.pathname);
  env.registerFunction('net.URL.getQuery(): map<string, list<string>>', (u: KubernetesUrl) => {
    const query: Record<string, string[]> = {};
    for (const [k, v] of u.url.searchParams) (query[k] ??= []).push(v);
    return query;
  });
}

const isNumber = (v: unknown): v is number | bigint => typeof v === 'bigint' || typeof v === 'number';

/** CEL equality on the values rules see (JSON-like trees of bigint, number, string, bool, lists, maps). */
export function celEquals(a: unknown, b: unknown): boolean {
  if (isNumber(a) || isNumber(b)) return isNumber(a) && isNumber(b) && a == b; // int and double compare by value
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && celEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

/** A fresh environment with the Kubernetes libraries; declare self/oldSelf on a clone. */
export function kubernetesEnvironment(): Environment {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
  registerStrings(env);
  registerLists(env);
  registerRegex(env);
  registerUrls(env);
  registerQuantity(env);
  return env;
}
