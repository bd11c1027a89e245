// What a compact JSON list writes between two of its items, found from the first item: the list
// decoder (listDecoder.ts) looks for it natively instead of scanning every byte of the items.

import { BACKSLASH, COLON, COMMA, OPEN_BRACE, QUOTE } from '../shared/jsonBytes.ts';

/** Longest first key (and, times 4, string value) a separator is built from (`metadata`, `apiVersion`, …). */
const MAX_FIRST_KEY = 64;
/** String members before `metadata` that a separator may hold (an unstructured object's apiVersion, kind). */
const MAX_PREFIX_MEMBERS = 3;
const METADATA_KEY = Buffer.from('metadata');

/**
 * The bytes between this item and the next, as a compact list writes them: `},{"` and the item's
 * first key, `":` — `},{"metadata":` for a typed list. When the members before `metadata` are short
 * strings (an unstructured object's `apiVersion` and `kind`), everything up to `"metadata":`: a
 * custom resource's ownerReferences and managedFields entries start with `"apiVersion"` too, but
 * not with its apiVersion, kind and metadata in a row. None when the item does not start so
 * (spaces, an empty object, an escaped key).
 */
export function separatorAfter(item: Buffer): Buffer | undefined {
  if (item[0] !== OPEN_BRACE || item[1] !== QUOTE) return undefined;
  const firstKeyEnd = item.indexOf(QUOTE, 2);
  if (firstKeyEnd < 0 || firstKeyEnd - 2 > MAX_FIRST_KEY || item[firstKeyEnd + 1] !== COLON) return undefined;
  if (item.subarray(2, firstKeyEnd).includes(BACKSLASH)) return undefined;
  let prefixEnd = firstKeyEnd + 2;
  // `at`: a member's key's opening quote.
  for (let at = 1, members = 0; members <= MAX_PREFIX_MEMBERS; members++) {
    const keyEnd = item.indexOf(QUOTE, at + 1);
    if (keyEnd < 0 || keyEnd - at > MAX_FIRST_KEY || item[keyEnd + 1] !== COLON) break;
    if (keyEnd - at - 1 === METADATA_KEY.length && item.compare(METADATA_KEY, 0, METADATA_KEY.length, at + 1, keyEnd) === 0) {
      prefixEnd = keyEnd + 2;
      break;
    }
    const valueEnd = item[keyEnd + 2] === QUOTE ? item.indexOf(QUOTE, keyEnd + 3) : -1;
    if (valueEnd < 0 || valueEnd - keyEnd > MAX_FIRST_KEY * 4 || item.subarray(at, valueEnd).includes(BACKSLASH)) break;
    if (item[valueEnd + 1] !== COMMA || item[valueEnd + 2] !== QUOTE) break;
    at = valueEnd + 2;
  }
  return Buffer.concat([Buffer.from('},'), item.subarray(0, prefixEnd)]);
}
