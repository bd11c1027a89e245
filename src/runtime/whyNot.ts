import type { ControllerShape, EventFate, KindRef, QueueSnapshot, ReconcileRecord } from '../controllerProtocol/index.ts';
import type { FateLog } from './fateLog.ts';
import type { InformerRefusals } from './informerRefusals.ts';
import { resultStep, writtenStep } from './whyResult.ts';

// "Why (not)?": for an object and a change to it (a resourceVersion, or its recent changes), whether
// each controller reconciled it and why, one step per line in plain words: is the kind watched at
// all, is the informer refused by RBAC, was the event received, filtered (by which predicate),
// mapped to which request, merged into a queued key or held back, and which reconcile served it.
// A query over what the session recorded: the event fates, the reconciles, the queues.

export interface WhyTarget {
  kind: string;
  /** `namespace/name`, or `name` for a cluster-scoped object. */
  key: string;
  /** One change; absent: the object's recent changes. */
  resourceVersion?: string;
}

export interface WhySource {
  controllers: readonly ControllerShape[];
  fates: FateLog;
  records: readonly ReconcileRecord[];
  refusals: InformerRefusals;
  queueOf(controller: string): QueueSnapshot | undefined;
}

export interface WhyStep {
  /** What the step asks: Watched, Informer allowed, Received, Filtered, Mapped to, Queued, Reconciled, Written, Result. */
  step: string;
  answer: string;
}

export type WhyVerdict = 'reconciled' | 'pending' | 'not reconciled';

export interface ControllerAnswer {
  controller: string;
  verdict: WhyVerdict;
  /** The reconcile that served the event. */
  reconcile?: number;
  steps: WhyStep[];
}

export interface ChangeAnswer {
  /** The event (absent when no controller received any). */
  type?: string;
  resourceVersion?: string;
  controllers: ControllerAnswer[];
}

export interface WhyAnswer {
  target: WhyTarget;
  changes: ChangeAnswer[];
}

/** Changes answered at most, most recent last. */
const MAX_CHANGES = 8;

/** `ConfigMap default/web`, `Namespace prod`, `ConfigMap default/web@1234` (one resourceVersion). */
export function parseWhyTarget(text: string): WhyTarget {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new Error(`expected \`Kind namespace/name\` (or \`Kind name\`, optionally @resourceVersion), got ${JSON.stringify(text)}`);
  const [key, resourceVersion] = parts[1].split('@');
  if (!key) throw new Error(`no object name in ${JSON.stringify(text)}`);
  return { kind: parts[0], key, ...(resourceVersion ? { resourceVersion } : {}) };
}

const VIA = { for: 'For', owns: 'Owns', watches: 'Watches' } as const;
const sameKind = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function sourcesOf(shape: ControllerShape, kind: string): { via: keyof typeof VIA; ref: KindRef }[] {
  const out: { via: keyof typeof VIA; ref: KindRef }[] = [];
  if (sameKind(shape.forKind.kind, kind)) out.push({ via: 'for', ref: shape.forKind });
  for (const ref of shape.owns) if (sameKind(ref.kind, kind)) out.push({ via: 'owns', ref });
  for (const ref of shape.watches) if (sameKind(ref.kind, kind)) out.push({ via: 'watches', ref });
  return out;
}

function describeShape(shape: ControllerShape): string {
  const parts = [`For ${shape.forKind.kind}`];
  if (shape.owns.length) parts.push(`Owns ${shape.owns.map((k) => k.kind).join(', ')}`);
  if (shape.watches.length) parts.push(`Watches ${shape.watches.map((k) => k.kind).join(', ')}`);
  return parts.join('; ');
}

const clock = (at: number) => new Date(at).toISOString().slice(11, 23);
const seconds = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

/** The reconcile of `request` by `controller` whose triggers include this event, if any ran. */
function servedBy(records: readonly ReconcileRecord[], controller: string, request: string, fate: EventFate): ReconcileRecord | undefined {
  for (const r of records) {
    if (r.controller !== controller || r.key !== request) continue;
    if (r.trigger.some((t) => t.resourceVersion === fate.resourceVersion && t.key === fate.key && sameKind(t.kind, fate.kind))) return r;
  }
  return undefined;
}

/** Other events a reconcile served, listed at most. */
const ALONG_LISTED = 3;

/**
 * For an event merged into a queued key: the other events the one reconcile served with it, so
 * the answer shows what deduplication did (`, one reconcile for this event and MODIFIED rv 12`).
 */
function servedAlong(record: ReconcileRecord, fate: EventFate): string {
  const others = record.trigger.filter((t) => !(t.resourceVersion === fate.resourceVersion && t.key === fate.key && sameKind(t.kind, fate.kind)));
  if (others.length === 0) return '';
  const named = others.slice(0, ALONG_LISTED).map((t) => (t.key === fate.key && sameKind(t.kind, fate.kind) ? `${t.type} rv ${t.resourceVersion}` : `${t.type} ${t.kind} ${t.key} rv ${t.resourceVersion}`));
  const more = others.length > ALONG_LISTED ? ` and ${others.length - ALONG_LISTED} more` : '';
  return `, one reconcile for this event and ${named.join(', ')}${more}`;
}

/** Deduplicated or held back? */
function queueStep(fate: EventFate): string {
  const request = fate.request ?? '';
  switch (fate.fate) {
    case 'merged':
      return fate.keyState === 'processing'
        ? `deduplicated: ${request} was already due to run again after the reconcile in progress`
        : `deduplicated: ${request} was already queued, so its next reconcile serves this event too`;
    case 'waiting':
      return `rate-limited: ${request} waits in the rate limiter (or a delay), ${seconds(fate.backoffMs ?? 0)} left when the event came`;
    default:
      if (fate.keyState === 'processing') return `yes, ${request} was being reconciled: it runs again after that reconcile`;
      if (fate.keyState === 'waiting') return `yes, ${request} was waiting for a retry (${seconds(fate.backoffMs ?? 0)} left): the event queued it at once`;
      return 'yes, neither deduplicated nor rate-limited';
  }
}

function answerFor(source: WhySource, shape: ControllerShape, target: WhyTarget, resourceVersion: string | undefined, fates: readonly EventFate[]): ControllerAnswer {
  const steps: WhyStep[] = [];
  const controller = shape.name;
  const watched = sourcesOf(shape, target.kind);
  if (watched.length === 0) {
    steps.push({ step: 'Watched', answer: `no, ${controller} does not watch ${target.kind} at all (${describeShape(shape)})` });
    return { controller, verdict: 'not reconciled', steps };
  }
  steps.push({ step: 'Watched', answer: `yes, ${target.kind} through ${watched.map((s) => VIA[s.via]).join(' and ')}` });
  const mine = fates.filter((f) => f.controller === controller && (resourceVersion === undefined || f.resourceVersion === resourceVersion));
  if (mine.length === 0) {
    const refusal = source.refusals.refusalOf(target.kind, watched[0]?.ref.apiVersion);
    if (refusal) {
      steps.push({ step: 'Informer allowed', answer: `no, forbidden by RBAC: ${refusal}` });
      steps.push({ step: 'Received', answer: 'no, its informer may not list or watch them' });
      return { controller, verdict: 'not reconciled', steps };
    }
    const last = fates.filter((f) => f.controller === controller).at(-1);
    steps.push({ step: 'Received', answer: last ? `no, its informer has not delivered rv ${resourceVersion} (the last it delivered was ${last.type} rv ${last.resourceVersion})` : `no, its informer has delivered no event about ${target.kind} ${target.key}` });
    return { controller, verdict: 'not reconciled', steps };
  }
  const first = mine[0] as EventFate;
  steps.push({ step: 'Received', answer: `yes, ${first.type} rv ${first.resourceVersion} at ${clock(first.at)}` });
  let verdict: WhyVerdict = 'not reconciled';
  let reconcile: number | undefined;
  for (const fate of mine) {
    const via = VIA[fate.via];
    if (fate.fate === 'filtered') {
      steps.push({ step: 'Filtered', answer: `yes (${via}), by predicate ${fate.predicate ?? '?'}: it returned false, so nothing was enqueued` });
      continue;
    }
    steps.push({ step: 'Filtered', answer: `no (${via}), it passed the predicates` });
    if (fate.fate === 'unmapped') {
      const why = fate.via === 'owns' ? `it has no controller ownerReference to a ${shape.forKind.kind}` : fate.via === 'watches' ? 'the map function returned no request' : 'its handler gave no request';
      steps.push({ step: 'Mapped to', answer: `no request (${via}): ${why}` });
      continue;
    }
    const request = fate.request ?? '';
    steps.push({ step: 'Mapped to', answer: `${shape.forKind.kind} ${request} (${via})` });
    steps.push({ step: 'Queued', answer: queueStep(fate) });
    const served = servedBy(source.records, controller, request, fate);
    if (served) {
      const along = fate.fate === 'merged' ? servedAlong(served, fate) : '';
      steps.push({ step: 'Reconciled', answer: `yes, reconcile #${served.seq} of ${request} at ${clock(served.startedAt)}${along}` });
      const written = writtenStep(served);
      if (written) steps.push({ step: 'Written', answer: written });
      const result = resultStep(served, source.records, source.queueOf(controller), Date.now());
      if (result) steps.push({ step: 'Result', answer: result });
      verdict = 'reconciled';
      reconcile ??= served.seq;
      continue;
    }
    const state = source.queueOf(controller)?.keys.find((k) => k.key === request);
    if (state) {
      steps.push({ step: 'Reconciled', answer: `not yet, ${request} is ${state.state}${state.state === 'waiting' && state.readyAt ? ` (${seconds(Math.max(0, state.readyAt - Date.now()))} left)` : ''}` });
      if (verdict !== 'reconciled') verdict = 'pending';
    } else {
      steps.push({ step: 'Reconciled', answer: 'no, no reconcile of it is recorded' });
    }
  }
  return { controller, verdict, ...(reconcile !== undefined ? { reconcile } : {}), steps };
}

export function whyNot(source: WhySource, target: WhyTarget): WhyAnswer {
  const fates = source.fates.about(target.kind, target.key);
  const versions: string[] = [];
  if (target.resourceVersion !== undefined) versions.push(target.resourceVersion);
  else for (const f of fates) if (!versions.includes(f.resourceVersion)) versions.push(f.resourceVersion);
  const recent = versions.slice(-MAX_CHANGES);
  if (recent.length === 0) return { target, changes: [{ controllers: source.controllers.map((shape) => answerFor(source, shape, target, undefined, [])) }] };
  return {
    target,
    changes: recent.map((rv) => {
      const type = fates.find((f) => f.resourceVersion === rv)?.type;
      return { ...(type ? { type } : {}), resourceVersion: rv, controllers: source.controllers.map((shape) => answerFor(source, shape, target, rv, fates)) };
    }),
  };
}

/** The answer as text: a heading per change, a verdict per controller, then one step per line. */
export function formatWhy(answer: WhyAnswer): string {
  const lines = [`Why (not)? ${answer.target.kind} ${answer.target.key}`];
  for (const change of answer.changes) {
    if (change.resourceVersion !== undefined) lines.push(`${change.type ?? 'change'} rv ${change.resourceVersion}:`);
    for (const c of change.controllers) {
      const verdict = c.verdict === 'reconciled' ? `reconciled (#${c.reconcile})` : c.verdict === 'pending' ? 'not reconciled yet' : 'not reconciled';
      lines.push(`  ${c.controller}: ${verdict}`);
      for (const s of c.steps) lines.push(`    ${s.step}? ${s.answer}`);
    }
  }
  return lines.join('\n');
}
