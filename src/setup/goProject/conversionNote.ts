import type { Project } from './project.ts';

// The simulated cluster calls no CRD conversion webhook: it serves every version of a CRD from the
// one stored object, so an object written as v1 and read as v2 comes back unconverted, where envtest
// (which points the CRD's conversion at the suite's webhook server) converts it. A project with
// conversion (kubebuilder's `create webhook --conversion` writes ConvertTo and ConvertFrom in
// api/<version>/<kind>_conversion.go) is told so before such a test fails for no visible reason.

const SPOKE = /\)\s*ConvertTo\(\s*\w+\s+conversion\.Hub\s*\)/;

/** A `by hand` line for the first Go file that converts to a hub, if any. */
export function noteConversion(project: Project): void {
  const spoke = project.goFiles().find((f) => !f.endsWith('_test.go') && SPOKE.test(project.read(f) ?? ''));
  if (spoke === undefined) return;
  project.manual(
    spoke,
    'the simulated cluster calls no conversion webhook (it serves every version of a CRD from the stored object, unconverted): test ConvertTo and ConvertFrom by calling them, not by reading an object through another version than it was written in',
  );
}
