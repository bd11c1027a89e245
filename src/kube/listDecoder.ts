// Decodes a list answer ({"kind":"PodList",…,"items":[{…},{…}]}) as its bytes arrive, one item at a
// time, instead of buffering the whole body, joining it and parsing it at once. For 50k Pods that
// is 286 MB of JSON: held three times over (the chunks, the joined buffer, the string) before the
// first object exists, which set the informer's peak memory. Here each item is parsed as soon as
// its last byte is in, and the chunks it came in are let go. What is not an item (kind, apiVersion,
// metadata with resourceVersion and continue) is kept and parsed at the end, with `"items":[]`.
//
// The scanner only tracks strings (to ignore brackets inside them) and nesting depth; JSON.parse
// still validates every byte. A long string's end is found natively (indexOf). When the informer's
// transform drops `metadata.managedFields`, the scan also finds them and cuts them from the bytes
// (memberCut.ts), so the transform's text form need not scan the text again.

import { memberCutOf } from '../informer/index.ts';
import { ABSENT, CUT, MemberCutter, UNSURE } from './memberCut.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const ITEMS_KEY = Buffer.from('items');
/** How far the scanner looks for a string's end byte by byte before it asks indexOf. */
const SHORT_STRING = 48;

export class ListTooLargeItemError extends Error {}

export class ListDecoder<T = unknown> {
  readonly items: T[] = [];
  private depth = 0;
  private inString = false;
  /** Backslashes ending the previous chunk inside a string (an odd count escapes the next byte). */
  private pendingBackslashes = 0;
  /** Inside the items array (depth ≥ 2 counts from it). */
  private inItems = false;
  private itemsDone = false;
  /** Pieces of the item being read; an item spans chunks when it is longer than what is left of one. */
  private itemPieces: Buffer[] = [];
  private itemLength = 0;
  private envelope: Buffer[] = [];
  /** The last key read at depth 1, when short enough to be "items". */
  private key: number[] = [];
  private keyOverflow = false;
  private readonly maxItemLength: number;
  private readonly prepare: ((item: T) => T) | undefined;
  private readonly prepareText: ((json: string, inEvent: boolean) => string) | undefined;
  /** Cuts what `prepareText` would, during the scan, when that is one member (managedFields). */
  private readonly cutter: MemberCutter | undefined;

  /**
   * `prepare` is applied to each item as it is parsed (e.g. the informer's transform);
   * `prepareText` to each item's text before (the transform's text form).
   */
  constructor(maxItemLength = Infinity, prepare?: (item: T) => T, prepareText?: (json: string, inEvent: boolean) => string) {
    this.maxItemLength = maxItemLength;
    this.prepare = prepare;
    this.prepareText = prepareText;
    const cut = memberCutOf(prepareText);
    this.cutter = cut ? new MemberCutter(cut) : undefined;
  }

  /**
   * Reads `chunk`; returns how many of its bytes were read. That is all of them, unless `until`
   * (a performance.now() time) has passed after an item: then it stops after that item, and the
   * caller pushes the rest later (after letting the event loop run).
   */
  push(chunk: Buffer, until = Infinity): number {
    const n = chunk.length;
    let i = 0;
    // Where, in this chunk, the current item or envelope run started.
    let itemStart = this.inItems && this.depth >= 3 ? 0 : -1;
    let envelopeStart = this.inItems ? -1 : 0;
    const cutter = this.cutter;
    while (i < n) {
      if (this.inString) {
        // Most strings (every key, most values) end within a few bytes: a loop here costs less
        // than a native indexOf call per string; a long one is left to indexOf.
        const limit = i + SHORT_STRING < n ? i + SHORT_STRING : n;
        let j = i;
        let escaped = (this.pendingBackslashes & 1) === 1;
        for (; j < limit; j++) {
          const b = chunk[j]!;
          if (escaped) escaped = false;
          else if (b === BACKSLASH) escaped = true;
          else if (b === QUOTE) break;
        }
        if (j < limit) {
          if (this.depth === 1 && !this.inItems) this.collectKey(chunk, i, j);
          cutter?.stringEnds(chunk, j);
          this.pendingBackslashes = 0;
          this.inString = false;
          i = j + 1;
          continue;
        }
        if (this.depth === 1 && !this.inItems) this.collectKey(chunk, i, j);
        this.pendingBackslashes = escaped ? 1 : 0;
        if (j === n) break;
        i = j;
        const q = chunk.indexOf(QUOTE, i);
        const end = q < 0 ? n : q;
        if (this.depth === 1 && !this.inItems) this.collectKey(chunk, i, end);
        if (q < 0) {
          this.pendingBackslashes = trailingBackslashes(chunk, i, n, this.pendingBackslashes);
          break;
        }
        const run = trailingBackslashes(chunk, i, q, this.pendingBackslashes);
        this.pendingBackslashes = 0;
        i = q + 1;
        if (run % 2 === 1) {
          if (this.depth === 1 && !this.inItems) this.collectKey(chunk, q, q + 1);
          continue;
        }
        this.inString = false;
        cutter?.stringEnds(chunk, q);
        continue;
      }
      const c = chunk[i]!;
      if (c === QUOTE) {
        this.inString = true;
        this.pendingBackslashes = 0;
        if (this.depth === 1 && !this.inItems) {
          this.key = [];
          this.keyOverflow = false;
        } else if (cutter !== undefined && this.depth >= 3) cutter.stringStarts(this.depth, chunk, i, this.itemLength + i - itemStart);
      } else if (c === COMMA) {
        if (cutter !== undefined && this.depth === 4) cutter.comma(this.depth, this.itemLength + i - itemStart);
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (this.inItems && this.depth === 2) {
          if (c === OPEN_BRACE) {
            itemStart = i;
            cutter?.startItem();
          }
        } else if (cutter !== undefined && this.inItems && this.depth >= 3) {
          cutter.opens(this.depth, c, this.itemLength + i - itemStart);
        } else if (!this.inItems && !this.itemsDone && this.depth === 1 && c === OPEN_BRACKET && this.isItemsKey()) {
          // The items array opens: the envelope keeps `[`, the items go their own way.
          this.envelope.push(chunk.subarray(envelopeStart, i + 1));
          envelopeStart = -1;
          this.inItems = true;
        }
        this.depth++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        this.depth--;
        if (this.inItems && this.depth === 2 && c === CLOSE_BRACE && itemStart >= 0) {
          this.finishItem(chunk.subarray(itemStart, i + 1));
          itemStart = -1;
          // Between items nothing of the chunk is held: stopping here loses nothing.
          if (until !== Infinity && performance.now() >= until) return i + 1;
        } else if (cutter !== undefined && this.inItems && this.depth >= 3) {
          cutter.closes(this.depth, c, this.itemLength + i - itemStart);
        } else if (this.inItems && this.depth === 1) {
          this.inItems = false;
          this.itemsDone = true;
          envelopeStart = i;
        }
      }
      i++;
    }
    if (itemStart >= 0) this.addItemPiece(chunk.subarray(itemStart));
    if (envelopeStart >= 0) this.envelope.push(chunk.subarray(envelopeStart));
    return n;
  }

  /** The list once the body has ended: the envelope parsed, with the items read. */
  end(): { list: Record<string, unknown>; items: T[] } {
    const list = JSON.parse(Buffer.concat(this.envelope).toString('utf8')) as Record<string, unknown>;
    if (this.itemPieces.length > 0 || this.inItems) throw new SyntaxError('the list ended in the middle of its items');
    return { list, items: this.items };
  }

  private addItemPiece(piece: Buffer): void {
    this.itemLength += piece.length;
    if (this.itemLength > this.maxItemLength) throw new ListTooLargeItemError(`an item of the list is larger than ${this.maxItemLength} bytes`);
    this.itemPieces.push(piece);
  }

  private finishItem(last: Buffer): void {
    let bytes = last;
    if (this.itemPieces.length > 0) {
      this.addItemPiece(last);
      bytes = Buffer.concat(this.itemPieces, this.itemLength);
      this.itemPieces = [];
    }
    this.itemLength = 0;
    const item = JSON.parse(this.itemText(bytes)) as T;
    this.items.push(this.prepare ? this.prepare(item) : item);
  }

  /** The item's text as it is to be parsed: with the member cut, or through the text form. */
  private itemText(bytes: Buffer): string {
    const outcome = this.cutter?.outcome() ?? UNSURE;
    if (outcome === CUT) {
      const { from, to } = this.cutter!;
      // One flat string: JSON.parse builds smaller objects from flat text than from joined strings.
      return Buffer.concat([bytes.subarray(0, from), bytes.subarray(to)], bytes.length - (to - from)).toString('utf8');
    }
    const text = bytes.toString('utf8');
    return outcome === ABSENT || this.prepareText === undefined ? text : this.prepareText(text, false);
  }

  private collectKey(chunk: Buffer, from: number, to: number): void {
    if (this.keyOverflow) return;
    if (this.key.length + (to - from) > ITEMS_KEY.length) {
      this.keyOverflow = true;
      return;
    }
    for (let j = from; j < to; j++) this.key.push(chunk[j]!);
  }

  private isItemsKey(): boolean {
    return !this.keyOverflow && this.key.length === ITEMS_KEY.length && this.key.every((b, j) => b === ITEMS_KEY[j]);
  }
}

/** Backslashes right before `end` (from `start`), plus `carried` when the run reaches `start`. */
function trailingBackslashes(chunk: Buffer, start: number, end: number, carried: number): number {
  let j = end - 1;
  while (j >= start && chunk[j] === BACKSLASH) j--;
  const run = end - 1 - j;
  return j < start ? run + carried : run;
}
