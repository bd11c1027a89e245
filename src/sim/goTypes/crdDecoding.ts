// CustomResourceDefinitions as kube-apiserver decodes them into the apiextensions.k8s.io/v1 Go
// types, which the generated tables (k8s.io/api only) do not hold: a value of the wrong JSON type
// where a struct, a list or a scalar goes is a 400 with encoding/json's message, and a null where
// a struct goes (a list item, a map value) is that struct's zero value, as Go leaves it. Without
// this, such a body reached the CRD validators as it was, and they failed with a 500.

type Problem = string | undefined;

const kindOf = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'boolean' ? 'bool' : typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class CrdWalker {
  private readonly path: string[] = [];
  problem: Problem;

  private fail(struct: string, value: unknown, goType: string): false {
    this.problem ??= `json: cannot unmarshal ${kindOf(value)} into Go struct field ${struct}.${this.path.join('.')} of type ${goType}`;
    return false;
  }

  /** Checks `holder[key]` (null or absent: fine) against an expected JSON kind. */
  private field(holder: Record<string, unknown>, key: string, struct: string, want: 'object' | 'array' | 'string' | 'bool', goType: string, then?: (v: never) => void): void {
    const v = holder[key];
    if (v === undefined || v === null || this.problem) return;
    this.path.push(key);
    const ok = want === 'object' ? isObject(v) : want === 'array' ? Array.isArray(v) : want === 'bool' ? typeof v === 'boolean' : typeof v === 'string';
    if (ok) then?.(v as never);
    else this.fail(struct, v, goType);
    this.path.pop();
  }

  /** A list of structs: each item an object, a null one its zero value. */
  private structs(list: unknown[], struct: string, goType: string, each: (item: Record<string, unknown>) => void): void {
    list.forEach((item, i) => {
      if (this.problem) return;
      if (item === null) list[i] = item = {};
      if (isObject(item)) each(item);
      else this.fail(struct, item, goType);
    });
  }

  crd(crd: Record<string, unknown>): void {
    this.field(crd, 'spec', 'CustomResourceDefinition', 'object', 'v1.CustomResourceDefinitionSpec', (spec: Record<string, unknown>) => {
      const S = 'CustomResourceDefinitionSpec';
      this.field(spec, 'group', S, 'string', 'string');
      this.field(spec, 'scope', S, 'string', 'v1.ResourceScope');
      this.field(spec, 'names', S, 'object', 'v1.CustomResourceDefinitionNames', (names: Record<string, unknown>) => {
        for (const key of ['plural', 'singular', 'kind', 'listKind']) this.field(names, key, 'CustomResourceDefinitionNames', 'string', 'string');
        for (const key of ['shortNames', 'categories']) this.field(names, key, 'CustomResourceDefinitionNames', 'array', '[]string');
      });
      this.field(spec, 'versions', S, 'array', '[]v1.CustomResourceDefinitionVersion', (versions: unknown[]) =>
        this.structs(versions, S, 'v1.CustomResourceDefinitionVersion', (version) => this.version(version)),
      );
    });
  }

  private version(version: Record<string, unknown>): void {
    const V = 'CustomResourceDefinitionVersion';
    this.field(version, 'name', V, 'string', 'string');
    this.field(version, 'served', V, 'bool', 'bool');
    this.field(version, 'storage', V, 'bool', 'bool');
    this.field(version, 'subresources', V, 'object', 'v1.CustomResourceSubresources');
    this.field(version, 'additionalPrinterColumns', V, 'array', '[]v1.CustomResourceColumnDefinition', (columns: unknown[]) =>
      this.structs(columns, V, 'v1.CustomResourceColumnDefinition', () => {}),
    );
    this.field(version, 'schema', V, 'object', 'v1.CustomResourceValidation', (schema: Record<string, unknown>) =>
      this.field(schema, 'openAPIV3Schema', 'CustomResourceValidation', 'object', 'v1.JSONSchemaProps', (props: Record<string, unknown>) => this.props(props)),
    );
  }

  private props(props: Record<string, unknown>): void {
    const P = 'JSONSchemaProps';
    this.field(props, 'type', P, 'string', 'string');
    this.field(props, 'required', P, 'array', '[]string');
    this.field(props, 'properties', P, 'object', 'map[string]v1.JSONSchemaProps', (properties: Record<string, unknown>) => {
      for (const [name, value] of Object.entries(properties)) {
        if (this.problem) return;
        this.path.push(name);
        if (value === null) properties[name] = {};
        else if (isObject(value)) this.props(value);
        else this.fail(P, value, 'v1.JSONSchemaProps');
        this.path.pop();
      }
    });
    this.field(props, 'not', P, 'object', 'v1.JSONSchemaProps', (not: Record<string, unknown>) => this.props(not));
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      this.field(props, key, P, 'array', '[]v1.JSONSchemaProps', (list: unknown[]) => this.structs(list, P, 'v1.JSONSchemaProps', (item) => this.props(item)));
    }
    // items and additionalProperties take more than one JSON form (JSONSchemaPropsOrArray, OrBool).
    for (const key of ['items', 'additionalProperties']) {
      const nested = props[key];
      if (!isObject(nested)) continue;
      this.path.push(key);
      this.props(nested);
      this.path.pop();
    }
  }
}

/** encoding/json's complaint about a CRD body of the wrong shape, or undefined; nulls where structs go become `{}` in place. */
export function crdTypeError(crd: Record<string, unknown>): string | undefined {
  const walker = new CrdWalker();
  walker.crd(crd);
  return walker.problem;
}
