// The `timeout` query parameter, read as kube-apiserver's request-deadline filter reads it: on
// every request that is not long-running (watches, proxies, exec, attach, logs, port-forwards), a
// value Go's time.ParseDuration refuses is a 400 before the request goes anywhere.
import { badRequest } from './status.ts';

const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
/** strconv.ParseBool's true spellings: how kube-apiserver's request info tells a watch. */
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** Refuses a malformed `timeout` on a request the filter applies to, in the filter's words. */
export function checkRequestTimeout(path: string, query: string): void {
  if (!query.includes('timeout=')) return;
  const params = new URLSearchParams(query);
  const value = params.get('timeout');
  if (!value || isLongRunning(path, params)) return;
  const problem = goDurationProblem(value);
  if (problem) throw badRequest(`invalid timeout specified in the request URL - ${problem}`);
}

function isLongRunning(path: string, params: URLSearchParams): boolean {
  const segments = path.split('/').filter(Boolean);
  if (segments.includes('watch') || segments.includes('proxy')) return true;
  if (GO_TRUE.has(params.get('watch') ?? '')) return true;
  const last = segments[segments.length - 1] ?? '';
  return segments.length >= 4 && LONG_RUNNING_SUBRESOURCES.has(last);
}

const UNIT_NANOS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const MAX_NANOS = 2 ** 63;

/** What Go's time.ParseDuration says of a value it refuses (`time: invalid duration "x"`), or undefined when it parses. */
export function goDurationProblem(value: string): string | undefined {
  const invalid = `time: invalid duration ${JSON.stringify(value)}`;
  let s = value;
  if (s.startsWith('-') || s.startsWith('+')) s = s.slice(1);
  if (s === '0') return undefined;
  if (s === '') return invalid;
  let total = 0;
  while (s !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [whole, integer = '', fraction] = number;
    if (integer === '' && (fraction === undefined || fraction === '')) return invalid;
    s = s.slice(whole.length);
    const unit = /^[^.\d]*/.exec(s)![0];
    if (unit === '') return `time: missing unit in duration ${JSON.stringify(value)}`;
    s = s.slice(unit.length);
    const nanos = UNIT_NANOS[unit];
    if (nanos === undefined) return `time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(value)}`;
    total += Number(`${integer || '0'}.${fraction ?? ''}0`) * nanos;
    if (total > MAX_NANOS) return invalid;
  }
  return undefined;
}
