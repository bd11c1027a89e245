// A field path into a Kubernetes object, as data breakpoints name it: `.spec.replicas`,
// `.data.mode`, `.spec.template.spec.containers[0].image`, `.metadata.labels["app.kubernetes.io/name"]`.
// Names may hold `-` (ConfigMap keys do); anything else goes in brackets.

export type FieldPath = readonly (string | number)[];

const SEGMENT = /^(?:\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\['([^']*)'\])/;

/** Reads a path at the start of `text`; `rest` is what follows it (a condition, or nothing). */
export function parseFieldPath(text: string): { path: FieldPath; source: string; rest: string } {
  const path: (string | number)[] = [];
  let i = 0;
  for (;;) {
    const m = SEGMENT.exec(text.slice(i));
    if (!m) break;
    if (m[1] !== undefined) path.push(m[1]);
    else if (m[2] !== undefined) path.push(Number(m[2]));
    else if (m[3] !== undefined) path.push(JSON.parse(m[3]) as string);
    else path.push(m[4] as string);
    i += m[0].length;
  }
  if (path.length === 0) throw new Error(`expected a field path such as .spec.replicas, not ${JSON.stringify(text)}`);
  return { path, source: text.slice(0, i), rest: text.slice(i).trim() };
}

export function readField(value: unknown, path: FieldPath): unknown {
  let v = value;
  for (const segment of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[segment];
  }
  return v;
}

/** The path as text again (`.data["a.b"]`), for a path built from the Variables view. */
export function formatFieldPath(path: FieldPath): string {
  return path.map((s) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$-]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('');
}

/** Values as JSON: a field that appears, disappears or changes inside counts as a change. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
