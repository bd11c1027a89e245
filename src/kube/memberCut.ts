import type { MemberCut } from '../informer/index.ts';
import { CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET } from '../shared/jsonBytes.ts';

// Finds one member of one object member of a list item — `metadata.managedFields` — while the list
// decoder scans the item's bytes anyway, so the item can be parsed without it at no extra scan
// (the transform's text form would scan the text again, and copy it twice to flatten it).
// The decoder reports what it meets at the item's member depth and the parent's member depth,
// with offsets counted from the item's first byte; the outcome says whether the member was cut,
// was not there, or could not be told (a name split across chunks, an odd layout): then the
// decoder falls back to the text form.

/** Depths as the list decoder counts them: the envelope's members at 1, the items array's at 2. */
const ITEM_MEMBERS = 3;
const PARENT_MEMBERS = 4;

/** `from`/`to` bound the member and one comma beside it. */
export const CUT = 0;
/** The parent was read whole and holds no such member: nothing to do. */
export const ABSENT = 1;
/** Could not be told here: let the text form look. */
export const UNSURE = 2;
export type CutOutcome = typeof CUT | typeof ABSENT | typeof UNSURE;

/** What the last string read at a watched depth was. */
const OTHER = 0;
const PARENT = 1;
const MEMBER = 2;
type Name = typeof OTHER | typeof PARENT | typeof MEMBER;

export class MemberCutter {
  private readonly parent: Buffer;
  private readonly member: Buffer;
  from = -1;
  to = -1;
  /** What the last string at a watched depth was, for the value that follows it. */
  private lastName: Name = OTHER;
  private stringChunk: Buffer | undefined;
  private stringAt = 0;
  private stringOffset = 0;
  private stringDepth = 0;
  private inParent = false;
  private parentClosed = false;
  private unsure = false;
  /** The last `,` between the parent's members, or its `{`. */
  private separator = -1;
  private separatorIsComma = false;
  /** Where the parent member's name that was read last started (its quote). */
  private keyStart = -1;
  private memberOpen = false;
  /** The member was the parent's first: the comma after it goes too. */
  private takeNextComma = false;

  constructor(cut: MemberCut) {
    this.parent = Buffer.from(cut.parent);
    this.member = Buffer.from(cut.member);
  }

  startItem(): void {
    this.from = this.to = this.separator = this.keyStart = -1;
    this.lastName = OTHER;
    this.stringChunk = undefined;
    this.inParent = this.parentClosed = this.unsure = this.memberOpen = this.takeNextComma = false;
  }

  stringStarts(depth: number, chunk: Buffer, at: number, offset: number): void {
    if (depth === ITEM_MEMBERS || (depth === PARENT_MEMBERS && this.inParent)) {
      this.stringChunk = chunk;
      this.stringAt = at;
      this.stringOffset = offset;
      this.stringDepth = depth;
    }
  }

  /** The string that started last ended at `end` (its closing quote) in `chunk`. */
  stringEnds(chunk: Buffer, end: number): void {
    const started = this.stringChunk;
    if (started === undefined) return;
    this.stringChunk = undefined;
    if (started !== chunk) {
      // Split across chunks: rare enough not to compare pieces.
      this.unsure = true;
      this.lastName = OTHER;
      return;
    }
    const wanted = this.stringDepth === ITEM_MEMBERS ? this.parent : this.member;
    const matches = end - this.stringAt - 1 === wanted.length && chunk.compare(wanted, 0, wanted.length, this.stringAt + 1, end) === 0;
    if (this.stringDepth === PARENT_MEMBERS) this.keyStart = this.stringOffset;
    this.lastName = !matches ? OTHER : this.stringDepth === ITEM_MEMBERS ? PARENT : MEMBER;
  }

  /** `{` or `[` at `depth` (before it is entered). */
  opens(depth: number, c: number, offset: number): void {
    if (depth === ITEM_MEMBERS) {
      if (c === OPEN_BRACE && this.lastName === PARENT && !this.parentClosed) {
        this.inParent = true;
        this.separator = offset;
        this.separatorIsComma = false;
      }
    } else if (depth === PARENT_MEMBERS && this.inParent && c === OPEN_BRACKET && this.lastName === MEMBER && this.from < 0) {
      this.memberOpen = true;
      if (this.separatorIsComma) this.from = this.separator;
      else {
        this.from = this.keyStart;
        this.takeNextComma = true;
      }
    }
    this.lastName = OTHER;
  }

  /** `}` or `]` that brings the scan back to `depth`. */
  closes(depth: number, c: number, offset: number): void {
    if (depth === PARENT_MEMBERS && this.memberOpen && c === CLOSE_BRACKET) {
      this.memberOpen = false;
      this.to = offset + 1;
    } else if (depth === ITEM_MEMBERS && this.inParent) {
      this.inParent = false;
      this.parentClosed = true;
      this.takeNextComma = false;
    }
  }

  /** `,` between the members at the parent's member depth. */
  comma(depth: number, offset: number): void {
    if (depth !== PARENT_MEMBERS || !this.inParent) return;
    if (this.takeNextComma && this.to >= 0) {
      this.to = offset + 1;
      this.takeNextComma = false;
    }
    this.separator = offset;
    this.separatorIsComma = true;
  }

  outcome(): CutOutcome {
    if (this.unsure || !this.parentClosed || this.memberOpen) return UNSURE;
    if (this.from >= 0 && this.to > this.from) return CUT;
    return this.from < 0 ? ABSENT : UNSURE;
  }
}
