import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import { ApiError } from '../../shared/apiError.ts';
import type { Clock, TimerHandle } from '../../shared/clock.ts';
import type { ConvertedVersion } from '../resources/convertedVersion.ts';
import { convertedVersionFor } from '../resources/convertedVersions.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import type { ScenarioRunHandle, ScenarioTarget } from '../simObjects.ts';
import { seededRandom } from '../../shared/seededRandom.ts';
import type { RequestContext } from '../store/types.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { applyFault, faultNamed } from '../faults/faultTable.ts';
import { ScenarioError, type ScenarioProblem } from './scenarioError.ts';
import { parseScenario } from './scenarioParser.ts';
import { progressEvery, type ObjectsProgressListener } from './objectsProgress.ts';
import type { Scenario, ScenarioAction, ScheduledStep, TargetRef } from './scenarioTypes.ts';
import { andThen, gvrOf, WRITE_DIRECTLY, type AdmitWrite, type MaybePromise } from './scenarioWrites.ts';

// Runs a validated scenario against a cluster: the objects at once (namespaces first, created when
// missing), then each step when the cluster's clock reaches its time. A step that fails (a 404, a
// conflict) is recorded and the run goes on, as a script of API calls against a live cluster would.
// A create whose name is still held by an object being deleted (a finalizer not yet removed) waits
// for it to go, as `kubectl delete` waits before the script's next command: whether it fails must
// not depend on how fast the controller finalizing it happens to be.

/** Whom a scenario's steps are written as: clients watching the cluster (check) tell them apart by it. */
export const SCENARIO_USER_AGENT = 'controller-lab/scenario';
const SCENARIO_CLIENT: RequestContext = { client: { userAgent: SCENARIO_USER_AGENT, tokenId: '' } };

export interface ScenarioRun extends ScenarioRunHandle {
  readonly scenario: Scenario;
  /** Steps run so far. */
  readonly stepsRun: number;
  /** Steps that failed, with the API's message. */
  readonly errors: ScenarioProblem[];
}

/** `file:line:col: path: message`, as ScenarioError words its problems. */
function problemLine(fileName: string, p: ScenarioProblem): string {
  return `${p.file ?? fileName}:${p.line}:${p.column}: ${p.path ? `${p.path}: ` : ''}${p.message}`;
}

function resolveKind(cluster: ScenarioTarget, apiVersion: string | undefined, kind: string): ResourceInfo | undefined {
  return apiVersion ? cluster.resources.byKind(apiVersion, kind) : cluster.resources.resolveName(kind);
}

/**
 * Where a kind's objects are stored: a version served by conversion (autoscaling/v1,
 * events.k8s.io/v1) is written as the version it is stored as, converted.
 */
function storageOf(cluster: ScenarioTarget, info: ResourceInfo): { info: ResourceInfo; converted?: ConvertedVersion } {
  const converted = info.source === 'builtin' ? convertedVersionFor(info) : undefined;
  const stored = converted && cluster.resources.lookup(converted.stored);
  return converted && stored ? { info: stored, converted } : { info };
}

/** The kind an object is written as, and the object in its terms. */
function storedForm(cluster: ScenarioTarget, object: KubeObject): { info: ResourceInfo; object: KubeObject } {
  const asked = resolveKind(cluster, object.apiVersion, object.kind ?? '');
  if (!asked) throw new ApiError(404, `no kind "${object.kind ?? ''}" is served in ${object.apiVersion ?? ''}`, 'NotFound');
  const { info, converted } = storageOf(cluster, asked);
  return { info, object: converted ? converted.toStored(object) : object };
}

/** Replaces `${i}` and `${rand}` in every string of a (copied) value. */
function interpolate<T>(value: T, index: number, random: () => number): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(/\$\{i\}/g, String(index)).replace(/\$\{rand\}/g, () => String(Math.floor(random() * 1_000_000)));
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

function orderForApply(objects: Scenario['objects']): Scenario['objects'] {
  const rank = (o: KubeObject): number => (o.kind === 'Namespace' ? 0 : o.kind === 'CustomResourceDefinition' ? 1 : 2);
  return [...objects].sort((a, b) => rank(a.object) - rank(b.object));
}

export interface ScenarioOptions {
  fileName?: string;
  /** The scenario file's folder: `include` paths are relative to it (without it, only absolute ones work). */
  baseDir?: string;
  /**
   * What times the steps (default: the cluster's clock). A debug session passes a clock that stops
   * while the debugger is stopped, so the scenario waits for the user.
   */
  clock?: Clock;
  /** How the scenario's writes are admitted (the cluster's webhooks); default: written at once. */
  admit?: AdmitWrite;
  /** Told of each step that failed (`file:line:col: path: message`), when it fails: the run goes on. */
  onStepFailed?: (problem: string) => void;
  /** What checkScenario returned for this text: not read again. */
  checked?: Scenario;
  /** Told about once a second while a large scenario's objects are read, then applied. */
  onObjectsProgress?: ObjectsProgressListener;
}

/** How long a create waits for a terminating object of its name to go, and how often it looks. */
const TERMINATION_WAIT_MS = 30_000;
const TERMINATION_POLL_MS = 50;

/** Most late steps run in one turn of the event loop, and the longest such a burst may take. */
const MAX_TURN_STEPS = 500;
const MAX_TURN_MS = 20;

/**
 * Everything checked before a scenario applies anything: its fields, the files it includes, the
 * kinds of its objects (served by `cluster` or defined by its CRDs) and their names. Throws a
 * ScenarioError listing every problem.
 */
export function checkScenario(cluster: ScenarioTarget, yamlText: string, options: ScenarioOptions = {}): Scenario {
  const fileName = options.fileName ?? 'scenario.yaml';
  const knownKind = (apiVersion: string | undefined, kind: string) => resolveKind(cluster, apiVersion, kind) !== undefined;
  const scenario = parseScenario(yamlText, fileName, knownKind, { ...(options.baseDir === undefined ? {} : { baseDir: options.baseDir }), onProgress: options.onObjectsProgress });
  precheckNames(cluster, scenario, fileName);
  return scenario;
}

export function startScenario(cluster: ScenarioTarget, yamlText: string, options: ScenarioOptions = {}): ScenarioRun {
  const fileName = options.fileName ?? 'scenario.yaml';
  const clock = options.clock ?? cluster.clock;
  const admit = options.admit ?? WRITE_DIRECTLY;
  const scenario = options.checked ?? checkScenario(cluster, yamlText, options);

  cluster.seed(scenario.seed);
  if (scenario.workloads) cluster.enableWorkloads(scenario.workloads);
  const random = seededRandom(scenario.seed ^ 0x5bd1e995);
  const errors: ScenarioProblem[] = [];
  let stepsRun = 0;
  let stopped = false;
  let timer: TimerHandle | undefined;
  let resolveDone: () => void = () => {};
  let rejectDone: (err: unknown) => void = () => {};
  const done = new Promise<void>((resolve, reject) => { resolveDone = resolve; rejectDone = reject; });

  // The objects one after another; a write a webhook may see is waited for (then the rest follow
  // asynchronously, and a refusal rejects `done`), else all are applied before this returns.
  const objects = orderForApply(scenario.objects);
  const refused = (at: Scenario['objects'][number], err: unknown): never => {
    if (!(err instanceof ApiError)) throw err;
    const { line, source, file } = at;
    throw new ScenarioError(fileName, [{ ...(file === undefined ? {} : { file }), line, column: 1, path: source, message: err.message }]);
  };
  const countApplied = progressEvery(options.onObjectsProgress, 'applied', objects.length);
  const applyFrom = (i: number): MaybePromise<void> => {
    for (; i < objects.length; i++) {
      countApplied(i);
      const at = objects[i]!;
      let applied: MaybePromise<void>;
      try {
        applied = applyObject(cluster, structuredClone(at.object), admit);
      } catch (err) {
        return refused(at, err);
      }
      if (applied instanceof Promise) {
        const after = i + 1;
        return applied.then(() => applyFrom(after), (err: unknown) => refused(at, err));
      }
    }
  };

  let start = 0;
  let next = 0;
  /** A step a webhook is admitting: the next ones wait for it. */
  let pending = false;
  const stepFailed = (step: ScheduledStep, err: unknown): 'retry' | 'recorded' => {
    if (!(err instanceof ApiError)) throw err;
    if (clock.now() - start < step.at + TERMINATION_WAIT_MS && nameHeldByTerminating(cluster, step, err)) return 'retry';
    const problem = { line: step.line, column: 1, path: step.source, message: err.message };
    errors.push(problem);
    options.onStepFailed?.(problemLine(fileName, problem));
    return 'recorded';
  };
  const runDue = (): void => {
    if (pending) return;
    timer = undefined;
    // A machine slower than the schedule must not run every late step in one go: that would hold
    // the event loop (and every client of the cluster) until the whole scenario is done.
    const yieldAt = performance.now() + MAX_TURN_MS;
    let turn = 0;
    while (!stopped && next < scenario.steps.length) {
      const step = scenario.steps[next];
      if (!step || step.at > clock.now() - start) break;
      if (++turn > MAX_TURN_STEPS || performance.now() > yieldAt) {
        timer = clock.setTimer(0, runDue);
        return;
      }
      next++;
      let ran: MaybePromise<void>;
      try {
        ran = runStep(cluster, step, random, admit);
      } catch (err) {
        if (stepFailed(step, err) === 'retry') {
          next--;
          timer = clock.setTimer(TERMINATION_POLL_MS, runDue);
          return;
        }
        ran = undefined;
      }
      if (ran instanceof Promise) {
        pending = true;
        ran.then(
          () => {
            stepsRun++;
            return 'done';
          },
          (err: unknown) => {
            if (stepFailed(step, err) === 'retry') {
              next--;
              return 'retry';
            }
            stepsRun++;
            return 'done';
          },
        ).then((outcome) => {
          pending = false;
          if (stopped) return;
          timer = clock.setTimer(outcome === 'retry' ? TERMINATION_POLL_MS : 0, runDue);
        }, rejectDone);
        return;
      }
      stepsRun++;
    }
    const upcoming = scenario.steps[next];
    if (stopped || !upcoming) {
      resolveDone();
      return;
    }
    timer = clock.setTimer(upcoming.at - (clock.now() - start), runDue);
  };
  // Steps count from when the objects are there.
  const begin = () => {
    start = clock.now();
    runDue();
  };
  const applying = applyFrom(0);
  if (applying instanceof Promise) applying.then(() => { if (!stopped) begin(); else resolveDone(); }, rejectDone);
  else begin();

  return {
    scenario,
    done,
    warnings: scenario.warnings.map((w) => problemLine(fileName, w)),
    get stepsRun() { return stepsRun; },
    errors,
    stop() {
      stopped = true;
      timer?.cancel();
      resolveDone();
    },
  };
}

function precheckNames(cluster: ScenarioTarget, scenario: Scenario, fileName: string): void {
  const problems: ScenarioProblem[] = [];
  for (const { object, line, source, file } of scenario.objects) {
    const info = resolveKind(cluster, object.apiVersion, object.kind ?? '');
    const name = object.metadata.name;
    if (!info || name === undefined) continue;
    const path = source ? `${source}.metadata.name` : 'metadata.name';
    for (const c of validateName(name, info.nameRule)) problems.push({ ...(file === undefined ? {} : { file }), line, column: 1, path, message: c.message });
  }
  if (problems.length) throw new ScenarioError(fileName, problems);
}

function ensureNamespace(cluster: ScenarioTarget, namespace: string): void {
  const ns = { group: '', version: 'v1', resource: 'namespaces' };
  try {
    cluster.get(ns, '', namespace);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 404)) throw err;
    cluster.create(ns, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, SCENARIO_CLIENT);
  }
}

/** Create, or merge onto what exists; status is written through /status when the kind has one. */
function applyObject(cluster: ScenarioTarget, given: KubeObject, admit: AdmitWrite): MaybePromise<void> {
  const { info, object } = storedForm(cluster, given);
  const gvr = gvrOf(info);
  const namespace = info.namespaced ? object.metadata.namespace ?? 'default' : '';
  if (namespace) ensureNamespace(cluster, namespace);
  const status = (object as { status?: unknown }).status;
  const hasStatus = info.subresources.some((s) => s.name === 'status') && status !== undefined && info.kind !== 'CustomResourceDefinition';
  const name = object.metadata.name;
  let exists = false;
  if (name) {
    try {
      cluster.get(gvr, namespace, name);
      exists = true;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
  }
  const withoutStatus: Record<string, unknown> = { ...object };
  delete withoutStatus.status;
  const written = exists && name
    ? admit({ info, verb: 'patch', namespace, name }, SCENARIO_CLIENT, (ctx: RequestContext) => cluster.patch(gvr, namespace, name, 'merge', withoutStatus, undefined, ctx))
    : admit({ info, verb: 'create', namespace, name: '' }, SCENARIO_CLIENT, (ctx: RequestContext) => cluster.create(gvr, namespace, object, ctx));
  return andThen(written, (w) => {
    if (!hasStatus) return;
    const writtenName = w.object.metadata.name ?? '';
    return andThen(
      admit({ info, verb: 'patch', namespace, name: writtenName, subresource: 'status' }, SCENARIO_CLIENT, (ctx: RequestContext) => cluster.patch(gvr, namespace, writtenName, 'merge', { status }, 'status', ctx)),
      () => undefined,
    );
  });
}

function resolveTarget(cluster: ScenarioTarget, target: TargetRef, random: () => number): { info: ResourceInfo; gvr: GroupVersionResource; namespace: string; name: string } {
  const asked = resolveKind(cluster, target.apiVersion, target.kind);
  if (!asked) throw new ApiError(404, `no kind "${target.kind}" is served`, 'NotFound');
  // A patch step's patch is in the stored version's terms.
  const { info } = storageOf(cluster, asked);
  const gvr = gvrOf(info);
  const namespace = info.namespaced ? target.namespace ?? 'default' : '';
  let name = target.name;
  if (name === '${random}') {
    const items = cluster.list(gvr, { namespace }).items;
    const pick = items[Math.floor(random() * items.length)];
    if (!pick) throw new ApiError(404, `no ${info.resource} in ${namespace || 'the cluster'} to pick from`, 'NotFound');
    name = pick.object.metadata.name ?? '';
  }
  return { info, gvr, namespace, name };
}

/** The step is a create refused because an object being deleted still has its name. */
function nameHeldByTerminating(cluster: ScenarioTarget, step: ScheduledStep, err: ApiError): boolean {
  if (step.action.type !== 'create' || err.code !== 409 || err.reason !== 'AlreadyExists') return false;
  const { info, object } = storedForm(cluster, step.action.object);
  const name = object.metadata.name;
  if (name === undefined || name.includes('${')) return false;
  try {
    return !!cluster.get(gvrOf(info), info.namespaced ? object.metadata.namespace ?? 'default' : '', name).object.metadata.deletionTimestamp;
  } catch {
    return false;
  }
}

/** Nothing of what was written: a step's outcome is whether it threw. */
function done(written: MaybePromise<unknown>): MaybePromise<void> {
  return andThen(written, () => undefined);
}

function runStep(cluster: ScenarioTarget, step: ScheduledStep, random: () => number, admit: AdmitWrite): MaybePromise<void> {
  const action: ScenarioAction = interpolate(step.action, step.index, random);
  switch (action.type) {
    case 'create': {
      const { info, object } = storedForm(cluster, action.object);
      const ns = info.namespaced ? object.metadata.namespace ?? 'default' : '';
      if (ns) ensureNamespace(cluster, ns);
      return done(admit({ info, verb: 'create', namespace: ns, name: '' }, SCENARIO_CLIENT, (ctx: RequestContext) => cluster.create(gvrOf(info), ns, object, ctx)));
    }
    case 'apply':
      return applyObject(cluster, action.object, admit);
    case 'update': {
      const { info, object } = storedForm(cluster, action.object);
      const ns = info.namespaced ? object.metadata.namespace ?? 'default' : '';
      const name = object.metadata.name ?? '';
      return done(admit({ info, verb: 'update', namespace: ns, name }, SCENARIO_CLIENT, (ctx: RequestContext) => {
        // A scenario's update overwrites what is stored, for kinds that refuse an update without a resourceVersion too.
        object.metadata.resourceVersion ??= cluster.get(gvrOf(info), ns, name).object.metadata.resourceVersion;
        return cluster.update(gvrOf(info), ns, name, object, undefined, ctx);
      }));
    }
    case 'patch': {
      const t = resolveTarget(cluster, action.target, random);
      return done(admit({ info: t.info, verb: 'patch', namespace: t.namespace, name: t.name }, SCENARIO_CLIENT, (ctx: RequestContext) => cluster.patch(t.gvr, t.namespace, t.name, action.patchType, action.patch, undefined, ctx)));
    }
    case 'delete': {
      const t = resolveTarget(cluster, action.target, random);
      const options = action.propagationPolicy ? { propagationPolicy: action.propagationPolicy } : {};
      return done(admit({ info: t.info, verb: 'delete', namespace: t.namespace, name: t.name, deleteOptions: { ...options } }, SCENARIO_CLIENT, (ctx: RequestContext) => cluster.delete(t.gvr, t.namespace, t.name, options, ctx)));
    }
    case 'scale': {
      const t = resolveTarget(cluster, action.target, random);
      cluster.patch(t.gvr, t.namespace, t.name, 'merge', { spec: { replicas: action.replicas } }, 'scale', SCENARIO_CLIENT);
      return;
    }
    case 'label': {
      const t = resolveTarget(cluster, action.target, random);
      return done(admit({ info: t.info, verb: 'patch', namespace: t.namespace, name: t.name }, SCENARIO_CLIENT, (ctx: RequestContext) => cluster.patch(t.gvr, t.namespace, t.name, 'merge', { metadata: { labels: action.labels } }, undefined, ctx)));
    }
    case 'fault': {
      const fault = faultNamed(action.fault);
      if (fault) applyFault(cluster, fault, withRandomName(cluster, action.args, random));
      return;
    }
  }
}

/** A fault's `name: ${random}` (with its `resource`, and `namespace`) as a random existing object's name. */
function withRandomName(cluster: ScenarioTarget, args: Record<string, unknown>, random: () => number): Record<string, unknown> {
  if (args.name !== '${random}' || typeof args.resource !== 'string') return args;
  const target: TargetRef = { kind: args.resource, name: '${random}' };
  if (typeof args.namespace === 'string') target.namespace = args.namespace;
  return { ...args, name: resolveTarget(cluster, target, random).name };
}
