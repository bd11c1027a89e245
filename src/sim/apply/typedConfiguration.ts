import { GENERATED_KINDS } from '../goTypes/generatedSchemas.ts';
import { fieldsOf } from '../goTypes/typedDecoding.ts';
import { goPlainValue } from '../goTypes/unstructuredConversion.ts';
import { itemElement, MissingKeyError, readableElement } from './fieldWalk.ts';
import type { Shape } from './shape.ts';

// Server-side apply types the applied configuration with structured-merge-diff before anything
// decodes it, so a value of the wrong kind for a built-in field (`replicas: "3"`, `paused: 1`, a
// map where a list goes) fails with its words — `.spec.replicas: expected numeric (int or float),
// got string` — in a 500, not the 400 of Go's JSON decoder. Its messages print the value with Go's
// %T, %v or %#v of the decoded YAML, as below. Types smd leaves untyped (quantities, int-or-string,
// times, raw extensions) are left to the conversion after the merge.

const NUMERIC = new Set(['int32', 'int64', 'uint32', 'uint64', 'double', 'float']);
const META = 'apimachinery.pkg.apis.meta.v1';
/** Types smd does not type: their values are checked when the merged object is converted. */
const UNTYPED = new Set([
  'bytes', `${META}.Time`, `${META}.MicroTime`, `${META}.Duration`, `${META}.FieldsV1`, 'apimachinery.pkg.runtime.RawExtension',
  'apimachinery.pkg.util.intstr.IntOrString', 'apimachinery.pkg.api.resource.Quantity',
  'api.authentication.v1.ExtraValue', 'api.authorization.v1.ExtraValue', 'api.certificates.v1.ExtraValue',
]);

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's %T of a value decoded from JSON or YAML into interface{}. */
function goTypeOf(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (isObject(v)) return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

const goPlain = goPlainValue;

/** Go's %#v of it: strings quoted, `map[string]interface {}{"a":1}`. */
function goSyntax(v: unknown): string {
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  if (isObject(v)) return `map[string]interface {}{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${goSyntax(v[k])}`).join(', ')}}`;
  return typeof v === 'string' ? JSON.stringify(v) : v === null ? 'interface {}(nil)' : String(v);
}

class TypedWalk {
  readonly problems: string[] = [];
  private readonly path: string[] = [];

  private fail(detail: string): void {
    this.problems.push(`${this.path.join('')}: ${detail}`);
  }

  /** Fields in sorted order, as kube-apiserver v1.28.4 listed them (an object's metadata after the rest). */
  message(message: string, value: Obj, shape: Shape, root: boolean): void {
    const fields = fieldsOf(message);
    const keys = Object.keys(value).sort();
    if (root && keys.includes('metadata')) keys.push(...keys.splice(keys.indexOf('metadata'), 1));
    for (const key of keys) {
      const v = value[key];
      if (root && (key === 'apiVersion' || key === 'kind')) continue;
      const row = fields.get(key);
      // Undeclared fields are refused before this walk; managedFields are field management's.
      if (!row || v === null || (key === 'managedFields' && message === `${META}.ObjectMeta`)) continue;
      this.path.push(`.${key}`);
      this.field(row[2], row[3] ?? '', v, shape.field(key));
      this.path.pop();
    }
  }

  private field(type: string, flags: string, v: unknown, shape: Shape): void {
    if (flags.includes('r')) {
      if (!Array.isArray(v)) return this.fail(`expected list, got &{${goPlain(v)}}`);
      const list = shape.list();
      v.forEach((item, i) => {
        if (item === null) return;
        let element: string;
        try {
          element = itemElement(item, list, i);
        } catch (err) {
          if (!(err instanceof MissingKeyError)) throw err;
          element = `i:${i}`;
        }
        this.path.push(readableElement(element));
        this.value(type, item, shape.items());
        this.path.pop();
      });
      return;
    }
    if (flags.includes('m')) {
      if (!isObject(v)) return this.fail(`expected map, got &{${goPlain(v)}}`);
      for (const k of Object.keys(v).sort()) {
        const item = v[k];
        if (item === null) continue;
        this.path.push(`.${k}`);
        this.value(type, item, shape.field(k));
        this.path.pop();
      }
      return;
    }
    this.value(type, v, shape);
  }

  private value(type: string, v: unknown, shape: Shape): void {
    if (NUMERIC.has(type)) {
      if (typeof v !== 'number') this.fail(`expected numeric (int or float), got ${goTypeOf(v)}`);
    } else if (type === 'string') {
      if (typeof v !== 'string') this.fail(`expected string, got &value.valueUnstructured{Value:${goSyntax(v)}}`);
    } else if (type === 'bool') {
      if (typeof v !== 'boolean') this.fail(`expected boolean, got &{${goPlain(v)}}`);
    } else if (UNTYPED.has(type)) {
      return;
    } else if (!isObject(v)) {
      this.fail(`expected map, got &{${goPlain(v)}}`);
    } else {
      this.message(type, v, shape, false);
    }
  }
}

/** structured-merge-diff's type errors for a built-in kind's applied configuration (none for other kinds). */
export function appliedTypeProblems(apiVersionKind: string, config: unknown, shape: Shape): string[] {
  const message = GENERATED_KINDS[apiVersionKind];
  if (!message || !isObject(config)) return [];
  const walk = new TypedWalk();
  walk.message(message, config, shape, true);
  return walk.problems;
}
