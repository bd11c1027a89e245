import { parseAllDocuments } from 'yaml';
import type { Project } from './project.ts';

// kubebuilder scaffolds each sample with `spec:` and only a comment under it: YAML's null. The API
// server drops a null the schema does not allow and then refuses the object when the CRD requires
// spec (kubebuilder's `+required`): "spec: Required value", from `kubectl apply -k config/samples`
// as from the starter scenario on the simulated cluster. The sample is the user's to fill in; this
// only says so before the first run does.

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

export function checkSamples(project: Project): void {
  if (!project.isDir(SAMPLES)) return;
  for (const file of project.listDir(SAMPLES).filter((f) => /\.ya?ml$/.test(f))) {
    const path = `${SAMPLES}/${file}`;
    const names = samplesWithNullSpec(project.read(path) ?? '');
    if (names.length) project.manual(path, `${names.join(', ')} has an empty spec (null): when the CRD requires spec, as kubebuilder's does, the API server refuses it and so does the starter scenario; give it fields, or write spec: {}`);
  }
}
