// The order of a strategic merge's merged list, as apimachinery's normalizeElementOrder puts it:
// the patch's items in the patch's order (or its `$setElementOrder` list's), the server's other
// items in the server's order, interleaved where both lists name them in the server's order. So
// a new container the patch names comes before the ones only the server had, as kubectl shows.

type Item = unknown;

/** Where `item` is in `list`: by merge key for maps, by value for primitives; -1 if absent. */
function indexIn(list: readonly Item[], item: Item, mergeKey: string | undefined): number {
  if (mergeKey === undefined) return list.indexOf(item);
  const key = (item as Record<string, unknown>)?.[mergeKey];
  return list.findIndex((x) => typeof x === 'object' && x !== null && (x as Record<string, unknown>)[mergeKey] === key);
}

function sortedBy(items: Item[], order: readonly Item[], mergeKey: string | undefined): Item[] {
  return items
    .map((item, i) => ({ item, i, at: indexIn(order, item, mergeKey) }))
    .sort((a, b) => (a.at >= 0 && b.at >= 0 ? a.at - b.at : 0) || a.i - b.i)
    .map((x) => x.item);
}

export function orderMergedList(merged: readonly Item[], patchOrder: readonly Item[], serverOrder: readonly Item[], mergeKey: string | undefined): Item[] {
  const fromPatch = sortedBy(merged.filter((m) => indexIn(patchOrder, m, mergeKey) >= 0), patchOrder, mergeKey);
  const serverOnly = sortedBy(merged.filter((m) => indexIn(patchOrder, m, mergeKey) < 0), serverOrder, mergeKey);
  const out: Item[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < fromPatch.length) {
    if (j >= fromPatch.length) out.push(serverOnly[i++]);
    else if (i >= serverOnly.length) out.push(fromPatch[j++]);
    else {
      const left = indexIn(serverOrder, serverOnly[i], mergeKey);
      const right = indexIn(serverOrder, fromPatch[j], mergeKey);
      out.push(left >= 0 && right >= 0 && left < right ? serverOnly[i++] : fromPatch[j++]);
    }
  }
  return out;
}
