// Fields a request's JSON body named twice (JSON.parse keeps the last), remembered beside the
// decoded body from the HTTP layer until the store decodes it with the request's field validation.

const duplicates = new WeakMap<object, string[]>();

export function recordDuplicateFields(body: object, paths: string[]): void {
  if (paths.length > 0) duplicates.set(body, paths);
}

export function duplicateFieldsOf(body: object): string[] {
  return duplicates.get(body) ?? [];
}
