import type { ScenarioProblem } from './scenarioError.ts';
import type { Scenario } from './scenarioTypes.ts';

// Files a scenario includes may give one object twice: kubebuilder scaffolds a sample per API
// version of a kind, all named `<kind>-sample`. They are one object in a cluster (the version is
// only how it is read), so the later file is merged onto the earlier one, as `kubectl apply -k
// config/samples` does; said once per object, so the run's single object is no surprise.

function groupOf(apiVersion: string | undefined): string {
  const parts = (apiVersion ?? '').split('/');
  return parts.length > 1 ? (parts[0] ?? '') : '';
}

export function sameObjectIncludedTwice(objects: Scenario['objects']): ScenarioProblem[] {
  const warnings: ScenarioProblem[] = [];
  const first = new Map<string, Scenario['objects'][number]>();
  for (const entry of objects) {
    const { object, file, line } = entry;
    const name = object.metadata.name;
    if (file === undefined || name === undefined) continue;
    const namespace = object.metadata.namespace ?? '';
    const key = `${groupOf(object.apiVersion)}/${object.kind ?? ''}/${namespace}/${name}`;
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, entry);
      continue;
    }
    const shown = `${object.kind ?? ''} ${namespace ? `${namespace}/` : ''}${name}`;
    const versions = earlier.object.apiVersion === object.apiVersion ? '' : ` (${earlier.object.apiVersion ?? ''}; this one is ${object.apiVersion ?? ''})`;
    warnings.push({
      file,
      line,
      column: 1,
      path: '',
      message: `${shown} is also in ${earlier.file ?? ''}${versions}: one object in the cluster, with this one merged onto it, as kubectl apply -k does; give the samples different names to have both`,
    });
  }
  return warnings;
}
