// Kubernetes resource quantities ("100m", "1.5Gi", "2e3") as exact fractions, so that 1Gi, 1024Mi
// and 1073741824 compare equal: the CEL quantity library, Pod QoS and quotas compare them.

const BINARY: Record<string, bigint> = { Ki: 2n ** 10n, Mi: 2n ** 20n, Gi: 2n ** 30n, Ti: 2n ** 40n, Pi: 2n ** 50n, Ei: 2n ** 60n };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const SYNTAX = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

/** A quantity as the exact fraction num/den (den > 0). */
export class Quantity {
  readonly num: bigint;
  readonly den: bigint;
  constructor(num: bigint, den: bigint) {
    const g = gcd(num < 0n ? -num : num, den) || 1n;
    this.num = num / g;
    this.den = den / g;
  }

  compare(other: Quantity): number {
    const a = this.num * other.den;
    const b = other.num * this.den;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  plus(other: Quantity, sign: 1n | -1n): Quantity {
    return new Quantity(this.num * other.den + sign * other.num * this.den, this.den * other.den);
  }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}

export function parseQuantity(text: string): Quantity | undefined {
  const m = SYNTAX.exec(text);
  if (!m) return undefined;
  const [, sign, number = '', suffix = ''] = m;
  const [whole = '', fraction = ''] = number.split('.');
  let num = BigInt(`${whole || '0'}${fraction}`) * (sign === '-' ? -1n : 1n);
  let den = 10n ** BigInt(fraction.length);
  if (suffix in BINARY) num *= BINARY[suffix]!;
  else {
    const exponent = suffix.startsWith('e') || suffix.startsWith('E') ? Number(suffix.slice(1)) : DECIMAL[suffix]!;
    if (Math.abs(exponent) > 1000) return undefined;
    if (exponent >= 0) num *= 10n ** BigInt(exponent);
    else den *= 10n ** BigInt(-exponent);
  }
  return new Quantity(num, den);
}
