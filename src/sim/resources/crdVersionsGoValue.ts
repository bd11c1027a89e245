import { jsonEqual } from '../vocabulary/jsonEqual.ts';

// A CRD's spec.versions as a validation error prints it: Go's %#v of the internal
// []apiextensions.CustomResourceDefinitionVersion. The conversion to the internal type moves a
// schema, subresources or columns that every version shares to the top level, so those are nil in
// each version; a pointer that stays is printed as an address, which no two servers share.

type Version = Record<string, unknown>;

const FIELDS = [
  ['schema', 'Schema', '(*apiextensions.CustomResourceValidation)'],
  ['subresources', 'Subresources', '(*apiextensions.CustomResourceSubresources)'],
] as const;

export function goCrdVersions(versions: unknown): string {
  if (!Array.isArray(versions)) return '[]apiextensions.CustomResourceDefinitionVersion(nil)';
  const list = versions.map((v) => (v ?? {}) as Version);
  const shared = (key: string) => list.every((v) => jsonEqual(v[key], list[0]![key]));
  const items = list.map((v) => {
    const warning = typeof v['deprecationWarning'] === 'string' ? `(*string)(${address()})` : '(*string)(nil)';
    const pointers = FIELDS.map(([key, name, type]) => `${name}:${type}(${v[key] === undefined || shared(key) ? 'nil' : address()})`);
    const columns = v['additionalPrinterColumns'] === undefined || shared('additionalPrinterColumns') ? '[]apiextensions.CustomResourceColumnDefinition(nil)' : '[]apiextensions.CustomResourceColumnDefinition{...}';
    return `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(String(v['name'] ?? ''))}, Served:${v['served'] === true}, Storage:${v['storage'] === true}, Deprecated:${v['deprecated'] === true}, DeprecationWarning:${warning}, ${pointers.join(', ')}, AdditionalPrinterColumns:${columns}}`;
  });
  return `[]apiextensions.CustomResourceDefinitionVersion{${items.join(', ')}}`;
}

/** Where a pointer points: a stand-in, as the real one is an address of the server's memory. */
function address(): string {
  return '0xc000000000';
}
