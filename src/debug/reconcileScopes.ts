import type { QueueSnapshot, ReconcileRecord } from '../runtime/index.ts';
import { requestView } from './requestView.ts';
import { dataChangeView } from './data/dataChangeView.ts';
import type { AttributedChange } from './data/dataWatch.ts';

// The variables of a reconcile's stack frame, one scope per entry: what it was asked (Request), what
// the cache held (Object), why it ran (Trigger), the queue around it (Queue), what it wrote (Writes)
// and how it ended (Result), and the watched fields that changed (Data Breakpoint). Adding a scope
// is adding an entry here.

/** What a scope may read besides the record: the runtime's queue as that reconcile saw it. */
export interface ScopeContext {
  queueFor(record: ReconcileRecord): QueueSnapshot | undefined;
  dataChangesOf(record: ReconcileRecord): AttributedChange[];
}

export interface ReconcileScope {
  /** The scope's name as the Variables view shows it (it may depend on the record). */
  label(record: ReconcileRecord): string;
  /** Expensive scopes stay collapsed until the user opens them. */
  expensive: boolean;
  value(record: ReconcileRecord, context: ScopeContext): unknown;
  /** Absent: always shown. */
  shown?(record: ReconcileRecord, context: ScopeContext): boolean;
}

const ran = (record: ReconcileRecord) => record.outcome !== undefined;
const named = (name: string) => () => name;

export const RECONCILE_SCOPES: readonly ReconcileScope[] = [
  {
    label: named('Data Breakpoint'),
    expensive: false,
    shown: (record, context) => context.dataChangesOf(record).length > 0,
    value: (record, context) => dataChangeView(context.dataChangesOf(record)),
  },
  { label: named('Request'), expensive: false, value: (record) => requestView(record) },
  {
    label: named('Object'),
    expensive: false,
    value: (record) => record.object ?? { '(not in cache)': `${record.forKind.kind} ${record.key} is not in the cache (deleted?)` },
  },
  {
    label: named('Trigger'),
    expensive: true,
    value: (record) => Object.fromEntries(record.trigger.map((t, i) => [`${i}: ${t.type} ${t.kind} ${t.key}`, t])),
  },
  {
    label: named('Queue'),
    expensive: true,
    value: (record, context) => {
      const q = context.queueFor(record);
      if (!q) return {};
      return { depth: q.depth, processing: q.processing, waiting: q.waiting, keys: Object.fromEntries(q.keys.map((k) => [k.key, k])) };
    },
  },
  {
    label: named('Writes'),
    expensive: false,
    value: (record) => {
      if (!ran(record)) return { '(not run yet)': 'writes appear after the reconcile runs' };
      if (record.writes.length === 0) return { '(none)': 'this reconcile wrote nothing' };
      return Object.fromEntries(record.writes.map((w, i) => [`${i}: ${w.verb} ${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name}`, w]));
    },
  },
  {
    label: (record) => (record.outcome?.kind === 'error' ? 'Error' : 'Result'),
    expensive: false,
    value: (record) => {
      if (!ran(record)) return { '(not run yet)': 'step (next) to run this reconcile' };
      if (record.outcome?.kind === 'error') return { ...record.outcome.error, requeue: record.decision, durationMs: record.durationMs };
      return { ...record.outcome?.result, requeue: record.decision, durationMs: record.durationMs };
    },
  },
];
