import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { builtinDefinitionName } from './builtinDefinitions.ts';

// The REST operations the documents list per served resource, in a form both the Swagger 2.0 and
// the OpenAPI v3 renderers turn into their own shape. Clients read them for more than docs:
// kubectl finds a resource's kind through the x-kubernetes-group-version-kind of its operations
// (explain), and checks that PATCH takes `fieldValidation` before it leaves field validation to
// the server (apply --validate=strict).

export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

export interface Operation {
  method: 'get' | 'put' | 'post' | 'patch' | 'delete';
  /** x-kubernetes-action: get, list, create, update, patch, delete, deletecollection (none for discovery). */
  action?: string;
  operationId: string;
  description: string;
  gvk?: Gvk;
  /** Definition the body is (a PATCH body is any object). */
  body?: string | 'patch';
  /** The patch content types a PATCH accepts (custom resources take no strategic merge patch). */
  patchTypes?: string[];
  query: string[];
  /** Response code → definition. */
  responses: Record<string, string>;
  /** The media types it answers in, when more than PRODUCES (a list or a watch also streams). */
  produces?: string[];
  /** The media types it reads, when not those of a resource operation (discovery documents). */
  consumes?: string[];
  tag: string;
}

export interface PathEntry {
  path: string;
  pathParams: string[];
  operations: Operation[];
}

/** What a served kind's documents refer to. */
export interface ServedKind {
  info: ResourceInfo;
  definition: string;
  listDefinition: string | undefined;
}

export const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
export const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
const SCALE = 'io.k8s.api.autoscaling.v1.Scale';
const WATCH_EVENT = 'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent';

export const QUERY_DESCRIPTIONS: Record<string, string> = {
  allowWatchBookmarks: 'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.',
  dryRun: 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
  fieldManager: 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.',
  fieldValidation: 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. This is the default behavior prior to v1.23. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.',
  force: 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
  labelSelector: 'A selector to restrict the list of returned objects by their labels. Defaults to everything.',
  fieldSelector: 'A selector to restrict the list of returned objects by their fields. Defaults to everything.',
  limit: 'limit is a maximum number of responses to return for a list call.',
  continue: 'The continue option should be set when retrieving more results from the server.',
  resourceVersion: 'resourceVersion sets a constraint on what resource versions a request may be served from.',
  resourceVersionMatch: 'resourceVersionMatch determines how resourceVersion is applied to list calls.',
  watch: 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.',
  timeoutSeconds: 'Timeout for the list/watch call.',
  gracePeriodSeconds: 'The duration in seconds before the object should be deleted.',
  orphanDependents: 'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.',
  sendInitialEvents: '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic "Bookmark" event  will be sent.',
  propagationPolicy: "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background', 'Foreground'.",
  pretty: "If 'true', then the output is pretty printed.",
  name: 'name of the resource',
  namespace: 'object name and auth scope, such as for teams and projects',
};

const INTEGER_QUERY = new Set(['limit', 'timeoutSeconds', 'gracePeriodSeconds']);
const BOOLEAN_QUERY = new Set(['allowWatchBookmarks', 'force', 'orphanDependents', 'sendInitialEvents', 'watch']);

export function queryType(name: string): string {
  return INTEGER_QUERY.has(name) ? 'integer' : BOOLEAN_QUERY.has(name) ? 'boolean' : 'string';
}

/** `apps` → `AppsV1`, `rbac.authorization.k8s.io` → `RbacAuthorizationV1`, core → `CoreV1`. */
export function groupVersionWord(group: string, version: string): string {
  return groupWord(group) + capitalize(version);
}

/** `apps` → `Apps`, `rbac.authorization.k8s.io` → `RbacAuthorization`, core → `Core`. */
export function groupWord(group: string): string {
  const words = group === '' ? ['core'] : group.replace(/\.k8s\.io$/, '').split(/[.-]/);
  return words.map(capitalize).join('');
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The document a group version's operations go in: `api/v1`, `apis/apps/v1`. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

const WRITE_QUERY = ['dryRun', 'fieldManager', 'fieldValidation'];
const LIST_QUERY = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'];
const DELETE_QUERY = ['dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy'];
// A list or watch answers in the watch stream's media types too.
const STREAMED = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];

export function pathsFor(served: ServedKind): PathEntry[] {
  const { info, definition, listDefinition } = served;
  const gvk: Gvk = { group: info.group, version: info.version, kind: info.kind };
  const gv = groupVersionWord(info.group, info.version);
  const scope = info.namespaced ? 'Namespaced' : '';
  const base = `/${groupVersionPath(info.group, info.version)}${info.namespaced ? '/namespaces/{namespace}' : ''}/${info.resource}`;
  const nsParams = info.namespaced ? ['namespace'] : [];
  const tag = gv.charAt(0).toLowerCase() + gv.slice(1);
  const op = (method: Operation['method'], action: string, verb: string, description: string, extra: Partial<Operation>, suffix = ''): Operation => ({
    method, action, operationId: `${verb}${gv}${action === 'deletecollection' ? 'Collection' : ''}${scope}${info.kind}${suffix}`,
    description, gvk, query: [], responses: {}, tag, ...(method === 'patch' ? { patchTypes: info.source === 'crd' ? CUSTOM_RESOURCE_PATCH_CONTENT_TYPES : PATCH_CONTENT_TYPES } : {}), ...extra,
  });
  const verbs = new Set(info.verbs);
  const collection: Operation[] = [];
  const listing = (): Partial<Operation> => ({ query: LIST_QUERY, responses: { '200': listDefinition ?? '' }, ...(info.source === 'crd' ? {} : { produces: STREAMED }) });
  if (verbs.has('list') && listDefinition) collection.push(op('get', 'list', 'list', `list or watch objects of kind ${info.kind}`, listing()));
  if (verbs.has('create')) {
    collection.push(op('post', 'post', 'create', `create ${article(info.kind)}`, { body: definition, query: WRITE_QUERY, responses: info.virtual ? { '201': definition } : { '200': definition, '201': definition, '202': definition } }));
  }
  if (verbs.has('deletecollection')) collection.push(op('delete', 'deletecollection', 'delete', `delete collection of ${info.kind}`, { body: DELETE_OPTIONS, query: [...LIST_QUERY.filter((q) => q !== 'watch' && q !== 'allowWatchBookmarks'), ...DELETE_QUERY].sort(), responses: { '200': STATUS } }));
  const entries: PathEntry[] = [];
  if (collection.length) entries.push({ path: base, pathParams: nsParams, operations: collection });
  // A namespaced kind is also listed across namespaces (the custom resource handler's builder lists them too).
  if (info.namespaced && verbs.has('list') && listDefinition) {
    entries.push({ path: `/${groupVersionPath(info.group, info.version)}/${info.resource}`, pathParams: [], operations: [{ ...op('get', 'list', 'list', `list or watch objects of kind ${info.kind}`, listing()), operationId: `list${gv}${info.kind}ForAllNamespaces` }] });
  }
  // The deprecated /watch/ paths, which kube-apiserver's installer writes for built-in kinds only.
  if (verbs.has('watch') && info.source !== 'crd') entries.push(...watchPaths(info, gvk, tag));
  if (info.virtual && !verbs.has('get')) return entries;
  const item: Operation[] = [];
  if (verbs.has('get')) item.push(op('get', 'get', 'read', `read the specified ${info.kind}`, { responses: { '200': definition } }));
  if (verbs.has('update')) item.push(op('put', 'put', 'replace', `replace the specified ${info.kind}`, { body: definition, query: WRITE_QUERY, responses: { '200': definition, '201': definition } }));
  if (verbs.has('delete')) item.push(op('delete', 'delete', 'delete', `delete ${article(info.kind)}`, { body: DELETE_OPTIONS, query: DELETE_QUERY, responses: { '200': STATUS, '202': STATUS } }));
  if (verbs.has('patch')) item.push(op('patch', 'patch', 'patch', `partially update the specified ${info.kind}`, { body: 'patch', query: [...WRITE_QUERY, 'force'], responses: { '200': definition, '201': definition } }));
  entries.push({ path: `${base}/{name}`, pathParams: ['name', ...nsParams], operations: item });
  for (const sub of info.subresources) {
    const isScale = sub.name === 'scale';
    const subGvk = { group: sub.group ?? info.group, version: sub.version ?? info.version, kind: sub.kind };
    const subDef = isScale ? SCALE : sub.kind === info.kind ? definition : builtinDefinitionName(subGvk.group, subGvk.version, subGvk.kind);
    if (!subDef) continue;
    const suffix = capitalize(sub.name);
    const what = isScale ? `scale of the specified ${info.kind}` : `${sub.name} of the specified ${info.kind}`;
    // Each verb the subresource takes, as the installer maps them: a create-only one (eviction, token) is a POST.
    const operations: Operation[] = [];
    const subVerbs = new Set(sub.verbs);
    if (subVerbs.has('create')) operations.push(op('post', 'post', 'create', `create ${sub.name} of ${article(info.kind)}`, { gvk: subGvk, body: subDef, query: WRITE_QUERY, responses: { '200': subDef, '201': subDef, '202': subDef } }, suffix));
    if (subVerbs.has('get')) operations.push(op('get', 'get', 'read', `read ${what}`, { gvk: subGvk, responses: { '200': subDef } }, suffix));
    if (subVerbs.has('update')) operations.push(op('put', 'put', 'replace', `replace ${what}`, { gvk: subGvk, body: subDef, query: WRITE_QUERY, responses: { '200': subDef, '201': subDef } }, suffix));
    if (subVerbs.has('patch')) operations.push(op('patch', 'patch', 'patch', `partially update ${what}`, { gvk: subGvk, body: 'patch', query: [...WRITE_QUERY, 'force'], responses: { '200': subDef, '201': subDef } }, suffix));
    entries.push({ path: `${base}/{name}/${sub.name}`, pathParams: ['name', ...nsParams], operations });
  }
  return entries;
}

/** /watch/… for a collection (and across namespaces) and for one object: each answers WatchEvents. */
function watchPaths(info: ResourceInfo, gvk: Gvk, tag: string): PathEntry[] {
  const gv = groupVersionWord(info.group, info.version);
  const root = `/${groupVersionPath(info.group, info.version)}/watch`;
  const watch = (action: 'watch' | 'watchlist', operationId: string, description: string): Operation => ({
    method: 'get', action, operationId, description, gvk, query: LIST_QUERY, responses: { '200': WATCH_EVENT }, tag, produces: STREAMED,
  });
  const listText = `watch individual changes to a list of ${info.kind}. deprecated: use the 'watch' parameter with a list operation instead.`;
  const oneText = `watch changes to an object of kind ${info.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`;
  if (!info.namespaced) {
    return [
      { path: `${root}/${info.resource}`, pathParams: [], operations: [watch('watchlist', `watch${gv}${info.kind}List`, listText)] },
      { path: `${root}/${info.resource}/{name}`, pathParams: ['name'], operations: [watch('watch', `watch${gv}${info.kind}`, oneText)] },
    ];
  }
  return [
    { path: `${root}/namespaces/{namespace}/${info.resource}`, pathParams: ['namespace'], operations: [watch('watchlist', `watch${gv}Namespaced${info.kind}List`, listText)] },
    { path: `${root}/namespaces/{namespace}/${info.resource}/{name}`, pathParams: ['name', 'namespace'], operations: [watch('watch', `watch${gv}Namespaced${info.kind}`, oneText)] },
    { path: `${root}/${info.resource}`, pathParams: [], operations: [watch('watchlist', `watch${gv}${info.kind}ListForAllNamespaces`, listText)] },
  ];
}

function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

export const PATCH_CONTENT_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];
// kubectl apply picks strategic merge patch only where the PATCH operation lists it.
const CUSTOM_RESOURCE_PATCH_CONTENT_TYPES = PATCH_CONTENT_TYPES.filter((t) => t !== 'application/strategic-merge-patch+json');
export const PRODUCES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
