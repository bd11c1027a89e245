// A minimal protobuf writer for tests: enough to build the bodies Go clients send
// (Content-Type application/vnd.kubernetes.protobuf), negative int64s included.

export function varint(n: number | bigint): number[] {
  // Negative numbers go as 64-bit two's complement, exactly (a double cannot hold 2^64 + n).
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  while (v >= 128n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

export const bytes = (field: number, payload: Uint8Array | number[] | string): number[] => {
  const data = typeof payload === 'string' ? [...Buffer.from(payload)] : [...payload];
  return [...varint(field * 8 + 2), ...varint(data.length), ...data];
};

export const num = (field: number, n: number | bigint): number[] => [...varint(field * 8), ...varint(n)];

/** The k8s\0 envelope (runtime.Unknown) around a kind's raw message. */
export const envelope = (apiVersion: string, kind: string, raw: number[]): Buffer =>
  Buffer.from([0x6b, 0x38, 0x73, 0x00, ...bytes(1, [...bytes(1, apiVersion), ...bytes(2, kind)]), ...bytes(2, raw), ...bytes(4, 'application/vnd.kubernetes.protobuf')]);

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
