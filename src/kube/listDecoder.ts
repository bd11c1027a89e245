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
//
// Most items are not scanned at all, though: a server writes its items alike, so the bytes between
// two items — `},{"metadata":` for a typed list, `},{"apiVersion":"…","kind":"…","metadata":` for
// custom resources (itemSeparator.ts) — are found natively (indexOf) and what lies before them is
// handed to JSON.parse. That is an item exactly when JSON.parse takes it: the text starts where an
// item starts, and a JSON text parses only when it is one whole value, so a separator met inside an
// item (in a nested array, or ending a string) makes it fail, and the next one is tried. An item
// the chunk's end cuts in two is carried over to the next chunk. Such an item is parsed whole and
// the transform drops managedFields from the object: parsing them costs less than scanning every
// byte to cut them (50k Pods synced in 3.6 s against 5.3 s). The scanner still reads what this
// cannot: the first item (which shows the separator), the last, an item too long to carry, a list
// written with spaces.

import { memberCutOf } from '../informer/index.ts';
import { separatorAfter } from './itemSeparator.ts';
import { ABSENT, CUT, MemberCutter, UNSURE } from './memberCut.ts';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../shared/jsonBytes.ts';

const ITEMS_KEY = Buffer.from('items');
/** How far the scanner looks for a string's end byte by byte before it asks indexOf. */
const SHORT_STRING = 48;
/** Separators tried for one item before the scanner reads it. */
const SEPARATOR_TRIES = 2;
/** Items read by the scanner after their separators failed, before separators are given up on for the list. */
const MAX_SEPARATOR_MISSES = 16;
/**
 * An item that the chunk cuts in two is carried over and joined to the next chunk (a copy), so
 * that its separator can be found there, while it is at most this long; a longer one is scanned.
 * Over TLS a chunk is one record, ~16 KB: without this, a third of a Pod list's items would be.
 */
const MAX_CARRY = 256 * 1024;

export class ListTooLargeItemError extends Error {}

export class ListDecoder<T = unknown> {
  readonly items: T[] = [];
  /** Of `items`, how many were found by their separators rather than scanned. */
  itemsBySeparator = 0;
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
  /** What lies between two items (`},{"metadata":`), once the first item showed it; see skipItems. */
  private separator: Buffer | undefined;
  /** Whether separators may be used: not given up on for this list. */
  private separators: boolean;
  private separatorMisses = 0;
  /** The start of an item cut by the end of the last chunk (from its `,`), read with the next one. */
  private carry: Buffer | undefined;

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
    // An item taken by separator skips the text form: only when the transform itself follows.
    this.separators = prepare !== undefined || prepareText === undefined;
  }

  /**
   * Reads `chunk`; returns how many of its bytes were read. That is all of them, unless `until`
   * (a performance.now() time) has passed after an item: then it stops after that item, and the
   * caller pushes the rest later (after letting the event loop run).
   */
  push(pushed: Buffer, until = Infinity): number {
    // Positions below are in `chunk`: what was carried over, then `pushed`. Stops for `until` come
    // only past the carried bytes, so that what is returned counts bytes of `pushed`.
    const carried = this.carry?.length ?? 0;
    const chunk = this.carry === undefined ? pushed : Buffer.concat([this.carry, pushed], carried + pushed.length);
    this.carry = undefined;
    const n = chunk.length;
    let i = 0;
    if (this.separator !== undefined && this.inItems && this.depth === 2 && !this.inString && this.itemPieces.length === 0) {
      i = this.skipItems(chunk, 0, until, carried);
      if (this.carry !== undefined) return pushed.length;
      if (i > carried && until !== Infinity && performance.now() >= until) return i - carried;
    }
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
          if (until !== Infinity && i + 1 > carried && performance.now() >= until) return i + 1 - carried;
          if (this.separator !== undefined) {
            const next = this.skipItems(chunk, i + 1, until, carried);
            if (this.carry !== undefined) return pushed.length;
            if (next > i + 1) {
              if (until !== Infinity && next > carried && performance.now() >= until) return next - carried;
              // The scanner goes on at the `,` after the last item taken (`i++` below).
              i = next - 1;
            }
          }
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
    return pushed.length;
  }

  /** The list once the body has ended: the envelope parsed, with the items read. */
  end(): { list: Record<string, unknown>; items: T[] } {
    if (this.carry !== undefined) {
      // The last item, carried in wait of a separator that never came: the scanner reads it.
      const rest = this.carry;
      this.carry = undefined;
      this.giveUpSeparators();
      this.push(rest);
    }
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
    if (this.separators && this.separator === undefined) this.separator = separatorAfter(bytes);
  }

  /**
   * Takes the items that follow `from` (just past an item's `}`) in this chunk by their separators;
   * returns where the last one taken ends (`from` when none was). An item the chunk's end cuts in
   * two is carried over to the next chunk (`carry`; then it returns the chunk's length). It stops
   * at the first item it cannot take — the list's last, one whose separators all failed to parse,
   * one too long to carry — and leaves it to the scanner, or when `until` has passed (past
   * `minEnd`, the bytes carried into this chunk).
   */
  private skipItems(chunk: Buffer, from: number, until: number, minEnd: number): number {
    const separator = this.separator!;
    let end = from;
    while (chunk[end] === COMMA) {
      if (end + 1 === chunk.length) return this.carryFrom(chunk, end);
      if (chunk[end + 1] !== OPEN_BRACE) break;
      const start = end + 1;
      let at = chunk.indexOf(separator, start);
      if (at < 0) return this.carryFrom(chunk, end);
      let item: T | undefined;
      for (let tries = 0; at >= 0 && tries < SEPARATOR_TRIES; tries++) {
        if (at + 1 - start > this.maxItemLength) return end;
        try {
          item = JSON.parse(chunk.toString('utf8', start, at + 1)) as T;
          break;
        } catch {
          at = chunk.indexOf(separator, at + 1);
        }
      }
      if (item === undefined) {
        if (at >= 0) this.missed();
        return end;
      }
      this.items.push(this.prepare ? this.prepare(item) : item);
      this.itemsBySeparator++;
      end = at + 1;
      if (until !== Infinity && end > minEnd && performance.now() >= until) break;
    }
    return end;
  }

  /** Keeps the chunk's bytes from `end` (an item's `,` and what came of it) for the next chunk, when short enough. */
  private carryFrom(chunk: Buffer, end: number): number {
    if (chunk.length - end <= MAX_CARRY) {
      this.carry = chunk.subarray(end);
      return chunk.length;
    }
    // Items this long, or items that do not start as the first did: the scanner reads them.
    this.missed();
    return end;
  }

  /** An item the separators could not take; past MAX_SEPARATOR_MISSES the scanner reads the rest of the list. */
  private missed(): void {
    if (++this.separatorMisses > MAX_SEPARATOR_MISSES) this.giveUpSeparators();
  }

  private giveUpSeparators(): void {
    this.separators = false;
    this.separator = undefined;
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
