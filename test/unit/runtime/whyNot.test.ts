import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ControllerShape, EventFate, QueueSnapshot, ReconcileRecord } from '../../../src/controllerProtocol/index.ts';
import { FateLog } from '../../../src/runtime/fateLog.ts';
import { InformerRefusals } from '../../../src/runtime/informerRefusals.ts';
import { formatWhy, parseWhyTarget, whyNot, type WhySource } from '../../../src/runtime/whyNot.ts';

// "Why (not)?" over recorded fates, reconciles and queues: each answer one step per line, in the
// words a controller author reads in the CLI, the Debug Console and VS Code.

const SHAPE: ControllerShape = { name: 'web-config', forKind: { apiVersion: 'apps/v1', kind: 'Deployment' }, owns: [{ apiVersion: 'v1', kind: 'ConfigMap' }], watches: [{ apiVersion: 'v1', kind: 'Secret' }], workers: 1 };

const fate = (f: Partial<EventFate>): EventFate => ({ controller: 'web-config', type: 'MODIFIED', apiVersion: 'v1', kind: 'Secret', key: 'default/token', resourceVersion: '10', via: 'watches', fate: 'enqueued', at: Date.UTC(2026, 0, 1, 12, 0, 0), ...f });

function source(fates: EventFate[], records: ReconcileRecord[] = [], queue?: QueueSnapshot): WhySource {
  const log = new FateLog();
  for (const f of fates) log.add(f);
  return { controllers: [SHAPE], fates: log, records, refusals: new InformerRefusals(), queueOf: () => queue };
}

test('parseWhyTarget reads Kind ns/name and an optional @resourceVersion', () => {
  assert.deepEqual(parseWhyTarget('Secret default/token@12'), { kind: 'Secret', key: 'default/token', resourceVersion: '12' });
  assert.deepEqual(parseWhyTarget(' Namespace prod '), { kind: 'Namespace', key: 'prod' });
  assert.throws(() => parseWhyTarget('default/token'), /expected `Kind namespace\/name`/);
});

test('merged into a key already queued: deduplicated, pending while the key waits its turn', () => {
  const queue: QueueSnapshot = { at: 0, depth: 1, processing: 0, waiting: 0, keys: [{ key: 'default/web', state: 'queued', retries: 0 }] };
  const text = formatWhy(whyNot(source([fate({ fate: 'merged', request: 'default/web', keyState: 'queued' })], [], queue), { kind: 'Secret', key: 'default/token' }));
  assert.equal(text, [
    'Why (not)? Secret default/token',
    'MODIFIED rv 10:',
    '  web-config: not reconciled yet',
    '    Watched? yes, Secret through Watches',
    '    Received? yes, MODIFIED rv 10 at 12:00:00.000',
    '    Filtered? no (Watches), it passed the predicates',
    '    Mapped to? Deployment default/web (Watches)',
    '    Queued? deduplicated: default/web was already queued, so its next reconcile serves this event too',
    '    Reconciled? not yet, default/web is queued',
  ].join('\n'));
});

test('merged, then served: the one reconcile names the events it served with this one', () => {
  const trigger = (kind: string, key: string, rv: string) => ({ type: 'MODIFIED', kind, apiVersion: 'v1', key, resourceVersion: rv, via: 'watches', at: 0 });
  const record = { seq: 9, controller: 'web-config', key: 'default/web', startedAt: Date.UTC(2026, 0, 1, 12, 0, 4), writes: [], trigger: [trigger('Secret', 'default/token', '9'), trigger('Secret', 'default/token', '10'), trigger('Secret', 'default/other', '8')] } as unknown as ReconcileRecord;
  const answer = whyNot(source([fate({ fate: 'merged', request: 'default/web', keyState: 'queued' })], [record]), { kind: 'Secret', key: 'default/token', resourceVersion: '10' });
  const lines = formatWhy(answer).split('\n');
  assert.ok(lines.includes('    Queued? deduplicated: default/web was already queued, so its next reconcile serves this event too'), lines.join('\n'));
  assert.ok(lines.includes('    Reconciled? yes, reconcile #9 of default/web at 12:00:04.000, one reconcile for this event and MODIFIED rv 9, MODIFIED Secret default/other rv 8'), lines.join('\n'));
  assert.equal(answer.changes[0]?.controllers[0]?.verdict, 'reconciled');
});

test('held back in the rate limiter: says how long was left; a later reconcile whose triggers include it served it', () => {
  const record = { seq: 7, controller: 'web-config', key: 'default/web', startedAt: Date.UTC(2026, 0, 1, 12, 0, 3), writes: [], trigger: [{ type: 'MODIFIED', kind: 'Secret', apiVersion: 'v1', key: 'default/token', resourceVersion: '10', via: 'watches', at: 0 }] } as unknown as ReconcileRecord;
  const answer = whyNot(source([fate({ fate: 'waiting', request: 'default/web', keyState: 'waiting', backoffMs: 2500 })], [record]), { kind: 'Secret', key: 'default/token', resourceVersion: '10' });
  const lines = formatWhy(answer).split('\n');
  assert.ok(lines.includes('    Queued? rate-limited: default/web waits in the rate limiter (or a delay), 2.5 s left when the event came'), lines.join('\n'));
  assert.ok(lines.includes('    Reconciled? yes, reconcile #7 of default/web at 12:00:03.000'), lines.join('\n'));
  assert.equal(answer.changes[0]?.controllers[0]?.verdict, 'reconciled');
  assert.equal(answer.changes[0]?.controllers[0]?.reconcile, 7);
});

test('an informer refused by RBAC: the answer says so instead of "not received"', () => {
  const s = source([]);
  s.refusals.output('W1128 reflector.go:561] failed to list *v1.Secret: secrets is forbidden: User "system:serviceaccount:default:web" cannot list resource "secrets" in API group "" at the cluster scope');
  const text = formatWhy(whyNot(s, { kind: 'Secret', key: 'default/token' }));
  assert.match(text, /^ {4}Informer allowed\? no, forbidden by RBAC: .*cannot list resource "secrets" in API group ""/m);
  assert.match(text, /^ {4}Received\? no, its informer may not list or watch them$/m);
});

test('a kind the controller does not watch, and one it watches but never heard about', () => {
  const notWatched = formatWhy(whyNot(source([]), { kind: 'Pod', key: 'default/web-1' }));
  assert.match(notWatched, /^ {4}Watched\? no, web-config does not watch Pod at all \(For Deployment; Owns ConfigMap; Watches Secret\)$/m);
  const unheard = formatWhy(whyNot(source([]), { kind: 'ConfigMap', key: 'default/nobody' }));
  assert.match(unheard, /^ {4}Received\? no, its informer has delivered no event about ConfigMap default\/nobody$/m);
});

test('reconciled, but RBAC refused its write and it failed: the verb and resource refused, the rule to add, the backoff left', () => {
  const forbidden = 'deployments.apps "web" is forbidden: User "system:serviceaccount:default:syncer" cannot patch resource "deployments" in API group "apps" in the namespace "default"';
  const record = {
    seq: 3, controller: 'web-config', key: 'default/web', startedAt: Date.UTC(2026, 0, 1, 12, 0, 1),
    trigger: [{ type: 'MODIFIED', kind: 'Secret', apiVersion: 'v1', key: 'default/token', resourceVersion: '10', via: 'watches', at: 0 }],
    writes: [
      { verb: 'create', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'web-synced', resourceVersion: '11', at: 0, durationMs: 1 },
      { verb: 'patch', apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web', error: { code: 403, reason: 'Forbidden', message: forbidden }, at: 0, durationMs: 1 },
    ],
    outcome: { kind: 'error', error: { name: 'Error', message: forbidden, terminal: false } },
  } as unknown as ReconcileRecord;
  const queue: QueueSnapshot = { at: 0, depth: 0, processing: 0, waiting: 1, keys: [{ key: 'default/web', state: 'waiting', retries: 2, readyAt: Date.now() + 80_000, backoffMs: 80_000, reason: 'backoff' }] };
  const answer = whyNot(source([fate({ request: 'default/web' })], [record], queue), { kind: 'Secret', key: 'default/token' });
  const lines = formatWhy(answer).split('\n');
  assert.ok(lines.includes('    Reconciled? yes, reconcile #3 of default/web at 12:00:01.000'), lines.join('\n'));
  assert.ok(lines.includes('    Written? no, RBAC refused its patch of Deployment default/web: system:serviceaccount:default:syncer lacks {apiGroups: ["apps"], resources: ["deployments"], verbs: ["patch"]} (kubebuilder: // +kubebuilder:rbac:groups=apps,resources=deployments,verbs=patch)'), lines.join('\n'));
  assert.ok(lines.some((l) => /^ {4}Result\? error: deployments\.apps "web" is forbidden: .*; default\/web waits in the rate limiter: retry 2 in (79\.\d|80\.0) s \(a 80\.0 s backoff\)$/.test(l)), lines.join('\n'));
});

test('an earlier failed reconcile says it was retried; a terminal error that it was not; a success adds nothing', () => {
  const rec = (seq: number, outcome: unknown) => ({ seq, controller: 'web-config', key: 'default/web', startedAt: 0, trigger: seq === 1 ? [{ type: 'MODIFIED', kind: 'Secret', apiVersion: 'v1', key: 'default/token', resourceVersion: '10', via: 'watches', at: 0 }] : [], writes: [], outcome }) as unknown as ReconcileRecord;
  const failed = { kind: 'error', error: { name: 'Error', message: 'told to fail', terminal: false } };
  const ask = (records: ReconcileRecord[]) => formatWhy(whyNot(source([fate({ request: 'default/web' })], records), { kind: 'Secret', key: 'default/token' })).split('\n');
  assert.ok(ask([rec(1, failed), rec(2, failed)]).includes('    Result? error: told to fail; retried with backoff (its next reconcile: #2)'));
  assert.ok(ask([rec(1, { kind: 'error', error: { name: 'TerminalError', message: 'bad spec', terminal: true } })]).includes('    Result? error: bad spec; a TerminalError, so default/web is not retried'));
  const ok = ask([rec(1, { kind: 'success', result: {} })]);
  assert.ok(!ok.some((l) => /Result\?|Written\?/.test(l)), ok.join('\n'));
});
