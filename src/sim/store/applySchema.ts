import { ApiError } from '../../shared/apiError.ts';
import { apiVersionOf } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { decodeProblems, unknownFieldsOf, type Location } from '../goTypes/typedDecoding.ts';
import type { JsonSchema } from '../crdSchema/jsonSchema.ts';
import { undeclaredFields } from '../crdSchema/undeclaredFields.ts';
import { DuplicateKeyError, MissingKeyError, fieldSetOf } from '../apply/fieldWalk.ts';
import type { Shape } from '../apply/shape.ts';
import { appliedTypeProblems } from '../apply/typedConfiguration.ts';

// Server-side apply reads the applied configuration against the kind's schema before merging it
// (a built-in kind's Go type, a custom resource's CRD schema): a field the schema does not declare
// fails the request whatever fieldValidation says, with structured-merge-diff's message, and (as
// kube-apiserver v1.28 answers it) as a 500 without a reason.

const OBJECT_META = 'apimachinery.pkg.apis.meta.v1.ObjectMeta';

function fieldPath(loc: Location): string {
  return loc.map((part) => (typeof part === 'number' ? `[${part}]` : part.startsWith('[') ? part : `.${part}`)).join('');
}

/** The undeclared fields of an applied configuration; none for kinds without a schema. */
function undeclared(info: ResourceInfo, patch: unknown, schema: JsonSchema | undefined): readonly Location[] {
  if (info.source === 'builtin') return decodeProblems(`${apiVersionOf(info)}/${info.kind}`, patch)?.unknownPaths ?? [];
  if (!schema || typeof patch !== 'object' || patch === null || Array.isArray(patch)) return [];
  return undeclaredFields(patch as Record<string, unknown>, schema, (metadata) => unknownFieldsOf(OBJECT_META, metadata).map((p) => [...p]));
}

/**
 * The 500 a configuration structured-merge-diff cannot type answers, naming the object as the
 * configuration does: the namespace it writes (none when it leaves it to the URL) and the name.
 */
function typedPatchFailure(info: ResourceInfo, patch: unknown, name: string, detail: string): ApiError {
  const gvk = `${info.group}/${info.version}, Kind=${info.kind}`;
  const metadata = (patch as { metadata?: { namespace?: unknown } } | null)?.metadata;
  const where = `${typeof metadata?.namespace === 'string' ? metadata.namespace : ''}/${name}`;
  const message = `failed to create typed patch object (${where}; ${gvk}): ${detail}`;
  return ApiError.fromStatus({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

/** structured-merge-diff's ValidationErrors: one alone, or each on a line of its own. */
const validationErrors = (problems: readonly string[]): string => (problems.length === 1 ? problems[0]! : ['errors:', ...problems.map((p) => `  ${p}`)].join('\n'));

/** Throws when an applied configuration names fields its kind's schema (a custom resource's `schema`) does not declare. */
export function checkAppliedFields(info: ResourceInfo, name: string, patch: unknown, schema?: JsonSchema): void {
  if (info.virtual) return;
  const paths = undeclared(info, patch, schema);
  if (paths.length === 0) return;
  throw typedPatchFailure(info, patch, name, validationErrors(paths.map((p) => `${fieldPath(p)}: field not declared in schema`)));
}

/** Throws when an applied configuration has a value of the wrong kind for its field, or a keyed list naming one key twice (two containers `c`). */
export function checkAppliedKeys(info: ResourceInfo, name: string, patch: unknown, shape: Shape): void {
  if (info.source === 'builtin' && !info.virtual) {
    const problems = appliedTypeProblems(`${apiVersionOf(info)}/${info.kind}`, patch, shape);
    if (problems.length) throw typedPatchFailure(info, patch, name, validationErrors(problems));
  }
  try {
    fieldSetOf(patch, shape);
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw typedPatchFailure(info, patch, name, err.message);
    // A keyed item without its key is refused when the configuration is merged, in its own words.
    if (!(err instanceof MissingKeyError)) throw err;
  }
}

