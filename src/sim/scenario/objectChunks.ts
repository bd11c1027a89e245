// A scenario of tens of thousands of objects (a cluster's dump: 60k objects, 67 MB) parsed as one
// YAML document holds the parser's node tree of every object at once, ~40 times the text. Its
// top-level `objects:` list, written in block style as such files are, is split here into one
// piece of text per item: each is parsed on its own and its tree dropped once its value is taken,
// so memory stays proportional to the objects themselves. Anything unusual (a flow list, an item
// less indented than the first, directives) is left to the whole-document parse.

export interface ObjectChunk {
  /** The item's text in the scenario: from the start of its `- ` line to the end of its last line. */
  start: number;
  end: number;
  /** The 1-based line of its `- `. */
  line: number;
}

export interface SplitObjects {
  /** The scenario with `objects: []` in place of the list, every other line where it was. */
  skeleton: string;
  chunks: ObjectChunk[];
}

const OBJECTS_KEY = /^objects:[ \t]*(#.*)?$/;

/** The block-style `objects:` list's items, or undefined when the text is not laid out that way. */
export function splitObjects(text: string): SplitObjects | undefined {
  if (text.startsWith('%')) return undefined;
  let pos = 0;
  let line = 1;
  let keyStart = -1;
  // Find `objects:` alone on its line at column 0.
  while (pos < text.length) {
    const eol = lineEnd(text, pos);
    if (OBJECTS_KEY.test(text.slice(pos, eol).trimEnd())) {
      keyStart = pos;
      break;
    }
    pos = eol + 1;
    line++;
  }
  if (keyStart < 0) return undefined;
  const keyEnd = lineEnd(text, keyStart);
  pos = keyEnd + 1;
  line++;
  const chunks: ObjectChunk[] = [];
  let indent = -1;
  let blockEnd = text.length;
  while (pos < text.length) {
    const eol = lineEnd(text, pos);
    const content = text.slice(pos, eol);
    const trimmed = content.trimStart();
    const at = content.length - trimmed.length;
    if (trimmed === '' || trimmed.startsWith('#')) {
      // Blank or a comment: inside the list (a comment between items belongs to neither).
    } else if (at === 0 && !(indent === 0 && isItemStart(trimmed))) {
      blockEnd = pos;
      break;
    } else if (isItemStart(trimmed) && (indent < 0 || at === indent)) {
      if (trimmed.startsWith('---') || content.includes('\t')) return undefined;
      indent = at;
      const last = chunks.at(-1);
      if (last) last.end = pos;
      chunks.push({ start: pos, end: text.length, line });
    } else if (indent < 0 || at <= indent) {
      // Text of the list that is not an item (a flow list, `[]`), or an item's line left of its `-`.
      return undefined;
    }
    pos = eol + 1;
    line++;
  }
  const last = chunks.at(-1);
  if (last) last.end = blockEnd;
  if (chunks.length === 0) return undefined;
  const block = text.slice(keyEnd, blockEnd);
  const newlines = block.length - block.replaceAll('\n', '').length;
  const skeleton = `${text.slice(0, keyStart)}objects: []${'\n'.repeat(newlines)}${text.slice(blockEnd)}`;
  return { skeleton, chunks };
}

function lineEnd(text: string, from: number): number {
  const eol = text.indexOf('\n', from);
  return eol < 0 ? text.length : eol;
}

function isItemStart(trimmed: string): boolean {
  return trimmed === '-' || trimmed.startsWith('- ');
}
