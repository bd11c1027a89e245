import { groupVersionPath, groupVersionWord, groupWord, PRODUCES, type Operation, type PathEntry } from './operations.ts';

// The discovery and version endpoints as kube-apiserver's OpenAPI documents list them: /api/,
// /apis/, /apis/<group>/, /api/v1/ and /apis/<group>/<version>/, /version/. In v3 each of
// `api`, `apis`, `apis/<group>` and `version` has a document of its own; a group version's
// resource list goes in that group version's document.

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

function get(operationId: string, description: string, response: string, tag: string): Operation {
  return { method: 'get', operationId, description, query: [], responses: { '200': response }, tag, consumes: PRODUCES };
}

function entry(path: string, op: Operation): PathEntry {
  return { path, pathParams: [], operations: [op] };
}

/** v3 document key → its paths, for the documents that describe no resource. */
export function discoveryDocuments(groups: readonly string[]): Map<string, PathEntry[]> {
  const docs = new Map<string, PathEntry[]>();
  docs.set('api', [entry('/api/', get('getCoreAPIVersions', 'get available API versions', `${META}.APIVersions`, 'core'))]);
  docs.set('apis', [entry('/apis/', get('getAPIVersions', 'get available API versions', `${META}.APIGroupList`, 'apis'))]);
  for (const group of groups) {
    if (group === '') continue;
    const word = groupWord(group);
    docs.set(`apis/${group}`, [entry(`/apis/${group}/`, get(`get${word}APIGroup`, 'get information of a group', `${META}.APIGroup`, word.charAt(0).toLowerCase() + word.slice(1)))]);
  }
  // /version/ speaks JSON only.
  docs.set('version', [entry('/version/', { ...get('getCodeVersion', 'get the code version', 'io.k8s.apimachinery.pkg.version.Info', 'version'), consumes: ['application/json'], produces: ['application/json'] })]);
  return docs;
}

/** The resource list of a group version (`/apis/apps/v1/`), listed in its document. */
export function resourceListPath(group: string, version: string): PathEntry {
  const gv = groupVersionWord(group, version);
  return entry(`/${groupVersionPath(group, version)}/`, get(`get${gv}APIResources`, 'get available resources', `${META}.APIResourceList`, gv.charAt(0).toLowerCase() + gv.slice(1)));
}
