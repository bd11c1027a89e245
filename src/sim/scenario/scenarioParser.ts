import { LineCounter, isNode, parseDocument, type Document } from 'yaml';
import { documentValue, yamlProblem } from './scenarioYaml.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { MAX_SCENARIO_TIME_MS, parseDuration } from '../vocabulary/duration.ts';
import { FaultArgumentError, resource } from '../faults/faultArguments.ts';
import { faultArgsOfStep } from '../faults/faultCalls.ts';
import { FAULTS, faultNamed } from '../faults/faultTable.ts';
import { FORMER_FAULT_STEPS, formerSpellingWarning } from './formerFaultSteps.ts';
import { ScenarioError, type ScenarioProblem } from './scenarioError.ts';
import { readIncludes } from './scenarioIncludes.ts';
import { sameObjectIncludedTwice } from './includedTwice.ts';
import { parseWorkloadsField } from './scenarioWorkloads.ts';
import { splitObjects, type ObjectChunk } from './objectChunks.ts';
import { progressEvery, type ObjectsProgressListener } from './objectsProgress.ts';
import type { Scenario, ScenarioAction, ScheduledStep, TargetRef } from './scenarioTypes.ts';

// Parses and validates a scenario file completely before anything runs: every problem is
// collected with its line, column and field path, and any problem rejects the whole file.

/** Answers whether a kind can be served (built in, or defined by a CRD in the scenario). */
export type KindCheck = (apiVersion: string | undefined, kind: string) => boolean;

type Path = (string | number)[];

const TOP_LEVEL = ['name', 'description', 'seed', 'workloads', 'include', 'objects', 'steps'];
const OBJECT_ACTIONS = ['create', 'apply', 'update'];
const TARGET_ACTIONS = ['patch', 'delete', 'scale', 'label'];
const ACTIONS = [...OBJECT_ACTIONS, ...TARGET_ACTIONS, ...FAULTS.map((f) => f.name)];
/** What a step's key may be: an action, or a fault's former name (still read, with a warning). */
const isAction = (key: string): boolean => ACTIONS.includes(key) || Object.hasOwn(FORMER_FAULT_STEPS, key);

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function pathText(path: Path): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? p : `.${p}`;
  return out;
}

class Validator {
  readonly problems: ScenarioProblem[] = [];
  readonly warnings: ScenarioProblem[] = [];
  private readonly doc: Document.Parsed;
  private readonly lines: LineCounter;
  /** Kinds defined by CRDs in this scenario and the files it includes: `group/Kind`. */
  private readonly crdKinds = new Set<string>();
  /** The names of the resources CRDs in this file define, lowercase: plural, singular, kind, short names, each also `.group`. */
  private readonly crdResourceNames = new Set<string>();
  private readonly knownKind: KindCheck;
  /** The included file this validator's document is in (undefined: the scenario itself). */
  private readonly file: string | undefined;

  constructor(doc: Document.Parsed, lines: LineCounter, knownKind: KindCheck, shared?: { problems: ScenarioProblem[]; crdKinds: Set<string>; file: string }) {
    this.doc = doc;
    this.lines = lines;
    this.knownKind = knownKind;
    if (shared) ({ problems: this.problems, crdKinds: this.crdKinds, file: this.file } = shared);
  }

  /** A validator for a document of an included file, reporting into the same list and seeing the same CRDs. */
  forDocument(doc: Document.Parsed, lines: LineCounter, file: string): Validator {
    return new Validator(doc, lines, this.knownKind, { problems: this.problems, crdKinds: this.crdKinds, file });
  }

  /** The `objects:` items parsed one by one (objectChunks.ts): where each is, to find a position in it again. */
  private chunked: { text: string; chunks: readonly ObjectChunk[] } | undefined;

  objectsChunked(text: string, chunks: readonly ObjectChunk[]): void {
    this.chunked = { text, chunks };
  }

  lineOf(path: Path): { line: number; column: number } {
    const chunk = this.chunked && path[0] === 'objects' && typeof path[1] === 'number' ? this.chunked.chunks[path[1]] : undefined;
    if (chunk) return positionInChunk(this.chunked!.text, chunk, path.slice(2));
    for (let p = path; p.length >= 0; p = p.slice(0, -1)) {
      const node = this.doc.getIn(p, true);
      if (isNode(node) && node.range) {
        const pos = this.lines.linePos(node.range[0]);
        return { line: pos.line, column: pos.col };
      }
      if (p.length === 0) break;
    }
    return { line: 0, column: 0 };
  }

  problem(path: Path, message: string): void {
    this.problems.push({ ...(this.file === undefined ? {} : { file: this.file }), ...this.lineOf(path), path: pathText(path), message });
  }

  warning(path: Path, message: string): void {
    this.warnings.push({ ...this.lineOf(path), path: pathText(path), message });
  }

  noteCrd(obj: Record<string, unknown>): void {
    if (obj.kind !== 'CustomResourceDefinition' || !isMap(obj.spec)) return;
    const group = obj.spec.group;
    const names = obj.spec.names;
    if (typeof group === 'string' && isMap(names) && typeof names.kind === 'string') this.crdKinds.add(`${group}/${names.kind}`);
    if (typeof group !== 'string' || !isMap(names)) return;
    const shortNames = Array.isArray(names.shortNames) ? names.shortNames : [];
    for (const name of [names.plural, names.singular, names.kind, ...shortNames]) {
      if (typeof name !== 'string') continue;
      this.crdResourceNames.add(name.toLowerCase());
      this.crdResourceNames.add(`${name}.${group}`.toLowerCase());
    }
  }

  /** Whether a fault's resource argument names a resource served, or one a CRD in this file defines. */
  resourceKnown(name: string): boolean {
    return this.knownKind(undefined, name) || this.crdResourceNames.has(name.toLowerCase());
  }

  kindKnown(apiVersion: string | undefined, kind: string): boolean {
    if (this.knownKind(apiVersion, kind)) return true;
    for (const k of this.crdKinds) {
      const [group, crdKind] = [k.slice(0, k.lastIndexOf('/')), k.slice(k.lastIndexOf('/') + 1)];
      if (crdKind === kind && (apiVersion === undefined || apiVersion.startsWith(`${group}/`))) return true;
    }
    return false;
  }

  object(value: unknown, path: Path): KubeObject | undefined {
    if (!isMap(value)) {
      this.problem(path, 'expected a Kubernetes object (a map with apiVersion, kind, metadata)');
      return undefined;
    }
    let ok = true;
    if (typeof value.apiVersion !== 'string') { this.problem([...path, 'apiVersion'], 'required: a string such as "v1" or "apps/v1"'); ok = false; }
    if (typeof value.kind !== 'string') { this.problem([...path, 'kind'], 'required: a string such as "ConfigMap"'); ok = false; }
    const meta = value.metadata;
    if (!isMap(meta)) { this.problem([...path, 'metadata'], 'required: a map with at least a name'); ok = false; }
    else if (typeof meta.name !== 'string' && typeof meta.generateName !== 'string') { this.problem([...path, 'metadata', 'name'], 'required: a name (or generateName)'); ok = false; }
    if (ok) {
      this.noteCrd(value);
      if (!this.kindKnown(value.apiVersion as string, value.kind as string)) {
        this.problem([...path, 'kind'], `unknown kind "${String(value.kind)}" in ${String(value.apiVersion)} (not built in, and no CustomResourceDefinition in this scenario or the files it includes defines it)`);
        ok = false;
      }
    }
    return ok ? (value as KubeObject) : undefined;
  }

  target(value: unknown, path: Path): TargetRef | undefined {
    if (!isMap(value)) {
      this.problem(path, 'expected a target: {kind, name, namespace?, apiVersion?}');
      return undefined;
    }
    const { kind, name, namespace, apiVersion } = value;
    let ok = true;
    if (typeof kind !== 'string') { this.problem([...path, 'kind'], 'required: the kind (e.g. Deployment) or resource (deployments, deploy)'); ok = false; }
    if (typeof name !== 'string') { this.problem([...path, 'name'], 'required: a name, or "${random}" for a random existing object'); ok = false; }
    if (namespace !== undefined && typeof namespace !== 'string') { this.problem([...path, 'namespace'], 'must be a string'); ok = false; }
    if (apiVersion !== undefined && typeof apiVersion !== 'string') { this.problem([...path, 'apiVersion'], 'must be a string'); ok = false; }
    if (ok && !this.kindKnown(apiVersion as string | undefined, kind as string)) {
      this.problem([...path, 'kind'], `unknown kind "${String(kind)}"`);
      ok = false;
    }
    if (!ok) return undefined;
    const t: TargetRef = { kind: kind as string, name: name as string };
    if (typeof namespace === 'string') t.namespace = namespace;
    if (typeof apiVersion === 'string') t.apiVersion = apiVersion;
    return t;
  }

  action(step: Record<string, unknown>, path: Path): ScenarioAction | undefined {
    const keys = Object.keys(step).filter((k) => k !== 'at' && k !== 'after' && k !== 'repeat');
    const unknown = keys.filter((k) => !isAction(k));
    for (const k of unknown) this.problem([...path, k], `unknown action "${k}"; expected one of: ${ACTIONS.join(', ')}`);
    const actions = keys.filter(isAction);
    if (unknown.length) return undefined;
    if (actions.length !== 1) {
      this.problem(path, actions.length === 0 ? `a step needs one action (${ACTIONS.join(', ')})` : `a step has one action, found ${actions.join(', ')}`);
      return undefined;
    }
    const type = actions[0] ?? '';
    const v = step[type];
    const p = [...path, type];
    if (OBJECT_ACTIONS.includes(type)) {
      const object = this.object(v, p);
      return object ? { type: type as 'create', object } : undefined;
    }
    if (!OBJECT_ACTIONS.includes(type) && !TARGET_ACTIONS.includes(type)) return this.fault(type, v, p);
    switch (type) {
      case 'patch': {
        if (!isMap(v)) return this.problem(p, 'expected {target, patch, type?}'), undefined;
        const target = this.target(v.target, [...p, 'target']);
        const patchType = v.type ?? 'merge';
        if (patchType !== 'merge' && patchType !== 'json' && patchType !== 'strategic') {
          this.problem([...p, 'type'], 'must be merge, json or strategic');
          return undefined;
        }
        if (v.patch === undefined) return this.problem([...p, 'patch'], 'required: the patch document'), undefined;
        if (patchType === 'json' ? !Array.isArray(v.patch) : !isMap(v.patch)) {
          return this.problem([...p, 'patch'], patchType === 'json' ? 'a JSON patch is a list of operations' : 'must be a map'), undefined;
        }
        return target ? { type: 'patch', target, patchType, patch: v.patch } : undefined;
      }
      case 'delete': {
        const target = this.target(isMap(v) && 'target' in v ? v.target : v, isMap(v) && 'target' in v ? [...p, 'target'] : p);
        const policy = isMap(v) ? v.propagationPolicy : undefined;
        if (policy !== undefined && policy !== 'Foreground' && policy !== 'Background' && policy !== 'Orphan') {
          return this.problem([...p, 'propagationPolicy'], 'must be Foreground, Background or Orphan'), undefined;
        }
        if (!target) return undefined;
        return policy ? { type: 'delete', target, propagationPolicy: policy } : { type: 'delete', target };
      }
      case 'scale': {
        const target = this.target(isMap(v) && 'target' in v ? v.target : v, isMap(v) && 'target' in v ? [...p, 'target'] : p);
        const replicas = isMap(v) ? v.replicas : undefined;
        if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
          return this.problem([...p, 'replicas'], 'required: a whole number >= 0'), undefined;
        }
        return target ? { type: 'scale', target, replicas } : undefined;
      }
      case 'label': {
        const target = this.target(isMap(v) && 'target' in v ? v.target : v, isMap(v) && 'target' in v ? [...p, 'target'] : p);
        const labels = isMap(v) ? v.labels : undefined;
        if (!isMap(labels)) return this.problem([...p, 'labels'], 'required: a map of label → value (null removes)'), undefined;
        return target ? { type: 'label', target, labels: labels as Record<string, string | null> } : undefined;
      }
    }
    return undefined;
  }

  /** A fault step: its arguments read with the fault table's types, from today's spelling or a former one. */
  fault(key: string, value: unknown, path: Path): ScenarioAction | undefined {
    const former = FORMER_FAULT_STEPS[key];
    const fault = faultNamed(former?.fault ?? key);
    if (!fault) return undefined;
    if (former) this.warning(path, formerSpellingWarning(key, former));
    let args: Record<string, unknown>;
    try {
      args = faultArgsOfStep(fault, former ? former.args(value) : value);
    } catch (err) {
      if (!(err instanceof FaultArgumentError)) throw err;
      return this.problem(path, err.message), undefined;
    }
    let ok = true;
    for (const [name, arg] of Object.entries(fault.args)) {
      const given = args[name];
      if (arg.type === resource && typeof given === 'string' && !this.resourceKnown(given)) {
        this.problem(path, `unknown resource "${given}" (not served, and no CustomResourceDefinition in this file defines it)`);
        ok = false;
      }
    }
    return ok ? { type: 'fault', fault: fault.name, args } : undefined;
  }
}

export interface ParseScenarioOptions {
  /** The scenario file's folder: `include` paths are relative to it. */
  baseDir?: string;
  /** Told, about once a second while a large scenario's objects are read, how far it got. */
  onProgress?: ObjectsProgressListener;
}

/** Parses the item alone (its text as it stands in the file) and finds the position of `rest` in it. */
function positionInChunk(text: string, chunk: ObjectChunk, rest: Path): { line: number; column: number } {
  const lines = new LineCounter();
  const doc = parseDocument(text.slice(chunk.start, chunk.end), { lineCounter: lines });
  for (let p = [0, ...rest]; p.length > 0; p = p.slice(0, -1)) {
    const node = doc.getIn(p, true);
    if (isNode(node) && node.range) {
      const pos = lines.linePos(node.range[0]);
      return { line: chunk.line + pos.line - 1, column: pos.col };
    }
  }
  return { line: chunk.line, column: 1 };
}

/**
 * The scenario's value, its `objects:` items parsed one at a time when the file is laid out so
 * (objectChunks.ts): each item's tree is dropped once its value is taken. Undefined when that
 * does not apply or any part does not parse alone (then the whole document is parsed, as before,
 * and says what is wrong where).
 */
function readChunked(text: string, onProgress: ParseScenarioOptions['onProgress']): { root: unknown; doc: Document.Parsed; lines: LineCounter; chunks: ObjectChunk[] } | undefined {
  const split = splitObjects(text);
  if (!split) return undefined;
  const lines = new LineCounter();
  const doc = parseDocument(split.skeleton, { lineCounter: lines, prettyErrors: true });
  if (doc.errors.length) return undefined;
  const read = documentValue(doc);
  if (read.problem || !isMap(read.value)) return undefined;
  const objects: unknown[] = [];
  const progress = progressEvery(onProgress, 'read', split.chunks.length);
  for (const chunk of split.chunks) {
    const item = parseDocument(text.slice(chunk.start, chunk.end));
    if (item.errors.length) return undefined;
    let value: ReturnType<typeof documentValue>;
    try {
      value = documentValue(item);
    } catch {
      // An alias of an anchor in another object: only the whole document resolves it.
      return undefined;
    }
    if (value.problem || !Array.isArray(value.value) || value.value.length !== 1) return undefined;
    // Copied: the parser builds a long quoted string piece by piece, and the pieces (~30 times
    // the string's size) stay behind it until something flattens it.
    objects.push(structuredClone(value.value[0]));
    progress(objects.length);
  }
  return { root: { ...read.value, objects }, doc, lines, chunks: split.chunks };
}

export function parseScenario(text: string, fileName: string, knownKind: KindCheck, options: ParseScenarioOptions = {}): Scenario {
  const chunked = readChunked(text, options.onProgress);
  let v: Validator;
  let root: unknown;
  if (chunked) {
    v = new Validator(chunked.doc, chunked.lines, knownKind);
    v.objectsChunked(text, chunked.chunks);
    root = chunked.root;
  } else {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true });
    if (doc.errors.length) {
      throw new ScenarioError(fileName, doc.errors.map((e) => yamlProblem(undefined, e)));
    }
    v = new Validator(doc, lines, knownKind);
    const read = documentValue(doc);
    if (read.problem) throw new ScenarioError(fileName, [read.problem]);
    root = read.value;
  }
  if (!isMap(root)) throw new ScenarioError(fileName, [{ line: 1, column: 1, path: '', message: 'a scenario is a map with seed, objects and steps' }]);
  for (const k of Object.keys(root)) if (!TOP_LEVEL.includes(k)) v.problem([k], `unknown field; expected one of: ${TOP_LEVEL.join(', ')}`);

  let seed = 1;
  if (root.seed !== undefined) {
    if (typeof root.seed === 'number' && Number.isInteger(root.seed)) seed = root.seed;
    else v.problem(['seed'], 'must be a whole number');
  }

  const workloads = parseWorkloadsField(root.workloads ?? false);
  for (const [field, message] of workloads.problems) v.problem(field ? ['workloads', field] : ['workloads'], message);

  // Included objects come before the scenario's own, as a project's installation is there before
  // what a scenario adds to it.
  const includes = readIncludes(root.include, { baseDir: options.baseDir, fileName }, (i, message) => v.problem(i === undefined ? ['include'] : ['include', i], message));
  v.problems.push(...includes.problems);
  const included = includes.documents.map((d) => ({ value: d.value, file: d.file, v: v.forDocument(d.doc, d.lines, d.file) }));
  included.forEach(({ value }) => { if (isMap(value)) v.noteCrd(value); });

  const objects: Scenario['objects'] = [];
  if (root.objects !== undefined && !Array.isArray(root.objects)) v.problem(['objects'], 'must be a list of Kubernetes objects');
  const rawObjects = Array.isArray(root.objects) ? root.objects : [];
  // CRDs first so objects of their kinds validate whatever the order in the file.
  rawObjects.forEach((o) => { if (isMap(o)) v.noteCrd(o); });
  for (const { value, file, v: iv } of included) {
    const obj = iv.object(value, []);
    if (obj) objects.push({ object: obj, line: iv.lineOf([]).line, source: '', file });
  }
  v.warnings.push(...sameObjectIncludedTwice(objects));
  // The same object twice would be merged in silence, the second one winning: most likely a copy
  // whose name was not changed.
  const firstAt = new Map<string, number>();
  rawObjects.forEach((o, i) => {
    const obj = v.object(o, ['objects', i]);
    if (!obj) return;
    const line = v.lineOf(['objects', i]).line;
    const { apiVersion, kind, metadata } = obj as { apiVersion: string; kind: string; metadata: { name?: string; namespace?: string } };
    if (metadata.name !== undefined) {
      const key = `${apiVersion.split('/').length > 1 ? apiVersion.split('/')[0] : ''}/${kind}/${metadata.namespace ?? ''}/${metadata.name}`;
      const first = firstAt.get(key);
      if (first !== undefined) v.problem(['objects', i], `${kind} ${metadata.namespace ? `${metadata.namespace}/` : ''}${metadata.name} is already defined at line ${first}: give one of them another name, or change it in a step`);
      else firstAt.set(key, line);
    }
    objects.push({ object: obj, line, source: `objects[${i}]` });
  });

  const steps: ScheduledStep[] = [];
  if (root.steps !== undefined && !Array.isArray(root.steps)) v.problem(['steps'], 'must be a list of steps');
  const rawSteps = Array.isArray(root.steps) ? root.steps : [];
  // Note CRDs created by steps before validating the steps that use their kinds.
  rawSteps.forEach((s) => { if (isMap(s)) for (const k of OBJECT_ACTIONS) if (isMap(s[k])) v.noteCrd(s[k]); });
  let time = 0;
  rawSteps.forEach((s, i) => {
    const path: Path = ['steps', i];
    if (!isMap(s)) return v.problem(path, 'a step is a map: {at|after, <action>}');
    if (s.at !== undefined && s.after !== undefined) v.problem(path, 'use either at or after, not both');
    if (s.at !== undefined) {
      const at = parseDuration(s.at);
      if (at === undefined) v.problem([...path, 'at'], 'expected a duration such as 2s or 500ms');
      else time = at;
    } else if (s.after !== undefined) {
      const after = parseDuration(s.after);
      if (after === undefined) v.problem([...path, 'after'], 'expected a duration such as 2s or 500ms');
      else time += after;
    }
    if (time > MAX_SCENARIO_TIME_MS) return v.problem(path, `comes ${Math.round(time / 3_600_000)}h after the start; a scenario's steps must all come within 24h`);
    const line = v.lineOf(path).line;
    if (s.repeat !== undefined) {
      const r = s.repeat;
      const rp: Path = [...path, 'repeat'];
      if (!isMap(r)) return v.problem(rp, 'expected {count, every|over, step}');
      if (Object.keys(s).some((k) => k !== 'at' && k !== 'after' && k !== 'repeat')) v.problem(path, 'a repeat step has its action inside repeat.step');
      const count = r.count;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 1_000_000) return v.problem([...rp, 'count'], 'required: a whole number from 1 to 1000000');
      let every = 0;
      if (r.every !== undefined) {
        const e = parseDuration(r.every);
        if (e === undefined) return v.problem([...rp, 'every'], 'expected a duration');
        every = e;
      } else if (r.over !== undefined) {
        const o = parseDuration(r.over);
        if (o === undefined) return v.problem([...rp, 'over'], 'expected a duration');
        every = o / count;
      }
      const last = time + (count - 1) * every;
      if (last > MAX_SCENARIO_TIME_MS) return v.problem(rp, `its last step comes ${Math.round(last / 3_600_000)}h after the start; a scenario's steps must all come within 24h`);
      if (!isMap(r.step)) return v.problem([...rp, 'step'], 'required: the step to repeat (one action)');
      const action = v.action(r.step, [...rp, 'step']);
      if (!action) return;
      for (let k = 0; k < count; k++) steps.push({ at: Math.round(time + k * every), action, index: k, source: `steps[${i}].repeat#${k}`, line });
      time += count * every;
      return;
    }
    const action = v.action(s, path);
    if (action) steps.push({ at: time, action, index: 0, source: `steps[${i}]`, line });
  });

  if (v.problems.length) throw new ScenarioError(fileName, v.problems);
  steps.sort((a, b) => a.at - b.at);
  const scenario: Scenario = { seed, warnings: v.warnings, objects, steps };
  if (workloads.options) scenario.workloads = workloads.options;
  return scenario;
}
