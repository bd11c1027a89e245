// The protobuf wire format, read-only and just enough for Kubernetes objects: varints, length-
// delimited fields (strings, bytes, messages, packed numbers), doubles, and skipping the rest.

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LENGTH_DELIMITED = 2;
export const WIRE_FIXED32 = 5;

export class WireReader {
  private pos: number;
  private readonly end: number;
  private readonly buf: Uint8Array;

  constructor(buf: Uint8Array, start = 0, end = buf.length) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** An unsigned varint as a number (exact below 2^53; int64 fields here are timestamps and counts). */
  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error('truncated varint');
      const byte = this.buf[this.pos++]!;
      result += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return result;
      scale *= 128;
    }
    throw new Error('varint longer than 10 bytes');
  }

  /**
   * A signed int32/int64 varint. Negative values are sent as 10-byte two's complement, which a
   * double cannot hold exactly (a time near year 1 would lose minutes), so those are re-read as a
   * BigInt.
   */
  signedVarint(): number {
    const start = this.pos;
    const n = this.varint();
    if (n < 2 ** 53) return n;
    let big = 0n;
    for (let i = start, shift = 0n; i < this.pos; i++, shift += 7n) big |= BigInt(this.buf[i]! & 0x7f) << shift;
    return Number(BigInt.asIntN(64, big));
  }

  /** A double (wire type fixed64, little-endian IEEE 754). */
  double(): number {
    if (this.pos + 8 > this.end) throw new Error('truncated fixed64');
    const value = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return value;
  }

  /** The next field's number and wire type, or undefined at the end. */
  tag(): { field: number; wire: number } | undefined {
    if (this.done) return undefined;
    const key = this.varint();
    return { field: Math.floor(key / 8), wire: key % 8 };
  }

  /** The bytes of a length-delimited field (a view, not a copy). */
  bytes(): Uint8Array {
    const length = this.varint();
    if (this.pos + length > this.end) throw new Error('truncated length-delimited field');
    const out = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  skip(wire: number): void {
    if (wire === WIRE_VARINT) this.varint();
    else if (wire === WIRE_FIXED64) this.pos += 8;
    else if (wire === WIRE_LENGTH_DELIMITED) this.bytes();
    else if (wire === WIRE_FIXED32) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
    if (this.pos > this.end) throw new Error('truncated field');
  }
}
