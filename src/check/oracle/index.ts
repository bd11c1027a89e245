// The oracle of `controller-lab check`: objects matched across runs, what varies between reference
// runs set aside, and each perturbed run's end state compared with the reference's.
export { Oracle } from './oracle.ts';
export { objectTitle, renderDiff, type DiffNames, type ObjectDiff } from './endStateDiff.ts';
export { fieldDifferences, type FieldDifference } from './fieldDiff.ts';
export { kindOf } from './identity.ts';
export { varyingExamples } from './masks.ts';
