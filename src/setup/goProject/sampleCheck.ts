import { parseAllDocuments } from 'yaml';
import type { Project } from './project.ts';

// kubebuilder scaffolds each sample with `spec:` and only a comment under it: YAML's null. The API
// server drops a null the schema does not allow and then refuses the object when the CRD requires
// spec (kubebuilder's `+required`): "spec: Required value", from `kubectl apply -k config/samples`
// as from the starter scenario on the simulated cluster. A sample still as scaffolded gets
// `spec: {}` (the comment stays); one the user edited is left as it is, with a line saying why it
// will be refused.

const SAMPLES = 'config/samples';

/** The names of the objects in `text` whose spec is null. */
export function samplesWithNullSpec(text: string): string[] {
  const names: string[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length) continue;
    const value = doc.toJS() as { kind?: unknown; metadata?: { name?: unknown }; spec?: unknown } | null;
    if (value && typeof value === 'object' && 'spec' in value && value.spec === null) names.push(`${String(value.kind)} ${String(value.metadata?.name)}`);
  }
  return names;
}

/**
 * `spec:` followed only by comments (kubebuilder's `# TODO(user): Add fields here`) up to the end of
 * its document, as `spec: {}`; undefined when the text has another shape.
 */
export function withEmptySpec(text: string): string | undefined {
  const scaffolded = /^spec:[ \t]*\n((?:[ \t]*#[^\n]*\n|[ \t]*\n)*)(?=---|$)/m;
  if (!scaffolded.test(text)) return undefined;
  const fixed = text.replace(scaffolded, (_, comments: string) => `spec: {}\n${comments}`);
  return samplesWithNullSpec(fixed).length === 0 ? fixed : undefined;
}

export function checkSamples(project: Project): void {
  if (!project.isDir(SAMPLES)) return;
  for (const file of project.listDir(SAMPLES).filter((f) => /\.ya?ml$/.test(f))) {
    const path = `${SAMPLES}/${file}`;
    const text = project.read(path) ?? '';
    const names = samplesWithNullSpec(text);
    if (names.length === 0) continue;
    const fixed = withEmptySpec(text);
    if (fixed !== undefined) project.write(path, fixed, `spec: {} for ${names.join(', ')} (kubebuilder's sample has a null spec, which the API server refuses when the CRD requires spec)`);
    else project.manual(path, `${names.join(', ')} has an empty spec (null): when the CRD requires spec, as kubebuilder's does, the API server refuses it and so does the starter scenario; give it fields, or write spec: {}`);
  }
}
