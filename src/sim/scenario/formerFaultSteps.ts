// Fault steps as scenario files wrote them before every fault had one name (the fault table's):
// `dropWatches: true`, `errorRate: 0.2`, `conflictNextUpdate: {kind, name}` … They still run, each
// read into today's name and arguments, with a warning that says how it is written now.

export interface FormerFaultStep {
  /** The fault's name now. */
  fault: string;
  /** The step's value in today's arguments. */
  args(value: unknown): unknown;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const same = (value: unknown): unknown => value;
/** The switches took any value (`withholdEvents: yes` withheld too). */
const none = (): unknown => true;

/** `{kind, apiVersion?}` as the resource argument names it: `Deployment.apps` for a kind of a named group. */
function resourceOf(kind: unknown, apiVersion: unknown): unknown {
  if (typeof kind !== 'string' || typeof apiVersion !== 'string' || !apiVersion.includes('/')) return kind;
  return `${kind}.${apiVersion.slice(0, apiVersion.indexOf('/'))}`;
}

export const FORMER_FAULT_STEPS: Readonly<Record<string, FormerFaultStep>> = {
  dropWatches: { fault: 'drop-watches', args: same },
  delayEvents: { fault: 'delay-events', args: same },
  withholdEvents: { fault: 'withhold-events', args: none },
  releaseEvents: { fault: 'release-events', args: none },
  withholdBookmarks: { fault: 'withhold-bookmarks', args: none },
  releaseBookmarks: { fault: 'release-bookmarks', args: none },
  conflictNextUpdate: {
    fault: 'conflict',
    args: (v) => (isMap(v) ? { resource: resourceOf(v.kind, v.apiVersion), name: v.name, ...(v.namespace !== undefined ? { namespace: v.namespace } : {}) } : v),
  },
  // errorRate's code was 500 unless given; http-faults leaves what is not given as it was.
  errorRate: {
    fault: 'http-faults',
    args: (v) => {
      const m = isMap(v) ? v : { rate: v };
      return { errorRate: m.rate, errorCode: m.code ?? 500, ...(m.retryAfterSeconds !== undefined ? { retryAfterSeconds: m.retryAfterSeconds } : {}) };
    },
  },
};

/** The warning for a step written the former way. */
export function formerSpellingWarning(former: string, step: FormerFaultStep): string {
  return `"${former}" is the former name of the fault "${step.fault}"; it still runs, but write it as ${step.fault}`;
}
