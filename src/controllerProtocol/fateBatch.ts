import type { EventFate, EventFateKind, QueueKeyState } from './records.ts';

// Event fates travel to the session in batches of one string each, not one object per fate: every
// watch event leaves a fate, and cloning (or JSON-parsing) an object per event cost the session
// more than the controller spent recording it. The session keeps the strings and decodes them only
// when a why-question or the timeline asks. The Go module writes the same format (fates.go).
//
// One record per line; fields separated by tabs; in a field, `\`, tab and newline are escaped as
// `\\`, `\t`, `\n`. A context record, written when it changes, holds what consecutive fates share:
//   C  controller  type  apiVersion  kind  via
// then one record per fate:
//   code  key  resourceVersion  extra  keyState  backoffMs  atDelta
// code: e(nqueued) m(erged) w(aiting) f(iltered) u(nmapped); extra: empty for a request equal to
// the key (or no predicate), else `+` and the request or predicate; keyState: q p w or empty;
// backoffMs: empty when absent; atDelta: ms since the batch's previous fate (the first: since 0).

const CODE_OF: Record<EventFateKind, string> = { enqueued: 'e', merged: 'm', waiting: 'w', filtered: 'f', unmapped: 'u' };
const KIND_OF: Record<string, EventFateKind> = { e: 'enqueued', m: 'merged', w: 'waiting', f: 'filtered', u: 'unmapped' };
const STATE_CODE: Record<QueueKeyState, string> = { queued: 'q', processing: 'p', waiting: 'w' };
const STATE_OF: Record<string, QueueKeyState> = { q: 'queued', p: 'processing', w: 'waiting' };

const SPECIALS = /[\\\t\n]/g;
const ESCAPED = /\\(.)/gs;

/** Three scans of a short string cost less than one regular expression test. */
export function escapeField(s: string): string {
  return s.indexOf('\\') >= 0 || s.indexOf('\t') >= 0 || s.indexOf('\n') >= 0 ? s.replace(SPECIALS, (c) => (c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\\\')) : s;
}

function unescapeField(s: string): string {
  return s.includes('\\') ? s.replace(ESCAPED, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c)) : s;
}

/** Fates a chunk of the batch holds before it is flattened (see FateBatchWriter). */
const CHUNK = 64;

/**
 * Collects fates into one batch string. Appending builds a rope, a node per piece; one rope of a
 * whole batch cost more to flatten (when the IPC channel copies it) than the appends, so the batch
 * is built in ropes of CHUNK fates, joined once at the end.
 */
export class FateBatchWriter {
  private text = '';
  private readonly chunks: string[] = [];
  private n = 0;
  private lastAt = 0;
  private controller: string | undefined;
  private type: string | undefined;
  private apiVersion: string | undefined;
  private kind: string | undefined;
  private via: string | undefined;

  add(f: EventFate): void {
    if (f.controller !== this.controller || f.type !== this.type || f.apiVersion !== this.apiVersion || f.kind !== this.kind || f.via !== this.via) {
      this.controller = f.controller;
      this.type = f.type;
      this.apiVersion = f.apiVersion;
      this.kind = f.kind;
      this.via = f.via;
      this.text += `C\t${escapeField(f.controller)}\t${escapeField(f.type)}\t${escapeField(f.apiVersion)}\t${escapeField(f.kind)}\t${escapeField(f.via)}\n`;
    }
    const key = escapeField(f.key);
    const named = f.fate === 'filtered' ? f.predicate : f.request;
    const extra = named === undefined || (named === f.key && f.fate !== 'filtered') ? '' : `+${escapeField(named)}`;
    const state = f.keyState ? STATE_CODE[f.keyState] : '';
    const backoff = f.backoffMs === undefined ? '' : f.backoffMs;
    this.text += `${CODE_OF[f.fate]}\t${key}\t${escapeField(f.resourceVersion)}\t${extra}\t${state}\t${backoff}\t${f.at - this.lastAt}\n`;
    this.lastAt = f.at;
    if (++this.n % CHUNK === 0) {
      this.chunks.push(this.text);
      this.text = '';
    }
  }

  get count(): number {
    return this.n;
  }

  /** The batch so far; the writer starts a new one. */
  finish(): string {
    this.chunks.push(this.text);
    const text = this.chunks.join('');
    this.chunks.length = 0;
    this.text = '';
    this.n = 0;
    this.lastAt = 0;
    this.controller = this.type = this.apiVersion = this.kind = this.via = undefined;
    return text;
  }
}

/** Every fate of a batch, in order. A malformed record is skipped, not fatal: the batch came from another process. */
export function decodeFateBatch(data: string): EventFate[] {
  const out: EventFate[] = [];
  let context: string[] | undefined;
  let at = 0;
  for (const line of data.split('\n')) {
    if (line === '') continue;
    const fields = line.split('\t');
    if (fields[0] === 'C') {
      context = fields.length === 6 ? fields.map(unescapeField) : undefined;
      continue;
    }
    const fate = KIND_OF[fields[0] as string];
    if (!fate || !context || fields.length !== 7) continue;
    const [, rawKey, rv, extra, state, backoff, atDelta] = fields as [string, string, string, string, string, string, string];
    at += Number(atDelta);
    const key = unescapeField(rawKey);
    const named = extra === '' ? undefined : unescapeField(extra.slice(1));
    const f: EventFate = {
      controller: context[1] as string,
      type: context[2] as EventFate['type'],
      apiVersion: context[3] as string,
      kind: context[4] as string,
      key,
      resourceVersion: unescapeField(rv),
      via: context[5] as EventFate['via'],
      fate,
      at,
    };
    if (fate === 'filtered') {
      if (named !== undefined) f.predicate = named;
    } else if (fate !== 'unmapped') f.request = named ?? key;
    else if (named !== undefined) f.request = named;
    const keyState = STATE_OF[state];
    if (keyState) f.keyState = keyState;
    if (backoff !== '') f.backoffMs = Number(backoff);
    out.push(f);
  }
  return out;
}
