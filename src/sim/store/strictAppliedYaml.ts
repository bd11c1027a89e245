import { badRequest } from '../../shared/apiErrors.ts';
import type { RequestContext } from './types.ts';

// After an apply merged its configuration (so its conflicts and undeclared fields are answered
// first), kube-apiserver reads the YAML again strictly: a key named twice in a map refuses the
// request under fieldValidation=Strict, and is a warning per key under Warn.

/** Refuses or warns about the keys the apply's YAML named twice, as its fieldValidation asks. */
export function checkRepeatedYamlKeys(ctx: RequestContext): void {
  const keys = ctx.repeatedYamlKeys;
  if (!keys?.length) return;
  const mode = ctx.fieldValidation ?? 'Warn';
  if (mode === 'Strict') throw badRequest(`error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  ${keys.join('\n  ')}`);
  if (mode === 'Warn') ctx.warnings?.push(...keys);
}
