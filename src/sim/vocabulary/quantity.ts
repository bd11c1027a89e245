// Kubernetes resource quantities ("500m", "1.5Gi", "2e3") as exact fractions, so that 1Gi, 1024Mi
// and 1073741824 are equal, and back to the canonical text resource.Quantity prints: the binary
// suffixes for a value first written with one, else the largest decimal suffix that keeps it whole.

const BINARY: Record<string, bigint> = { Ki: 2n ** 10n, Mi: 2n ** 20n, Gi: 2n ** 30n, Ti: 2n ** 40n, Pi: 2n ** 50n, Ei: 2n ** 60n };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const SYNTAX = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

/** A quantity as the exact fraction num/den (den > 0); `binary` when first written with Ki, Mi, Gi… */
export class Quantity {
  readonly num: bigint;
  readonly den: bigint;
  readonly binary: boolean;
  constructor(num: bigint, den: bigint, binary = false) {
    const g = gcd(num < 0n ? -num : num, den) || 1n;
    this.num = num / g;
    this.den = den / g;
    this.binary = binary;
  }

  compare(other: Quantity): number {
    const a = this.num * other.den;
    const b = other.num * this.den;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** The sum (sign 1n) or difference (-1n); it keeps this one's format, as Quantity.Add does. */
  plus(other: Quantity, sign: 1n | -1n): Quantity {
    return new Quantity(this.num * other.den + sign * other.num * this.den, this.den * other.den, this.binary || (this.num === 0n && other.binary));
  }

  isZero(): boolean {
    return this.num === 0n;
  }

  /** The canonical text (`500m`, `252Mi`, `1k`, `0`). */
  toString(): string {
    return formatQuantity(this);
  }
}

export const ZERO = new Quantity(0n, 1n);

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
  const binary = suffix in BINARY;
  if (binary) num *= BINARY[suffix]!;
  else {
    const exponent = suffix.startsWith('e') || suffix.startsWith('E') ? Number(suffix.slice(1)) : DECIMAL[suffix]!;
    if (Math.abs(exponent) > 1000) return undefined;
    if (exponent >= 0) num *= 10n ** BigInt(exponent);
    else den *= 10n ** BigInt(-exponent);
  }
  return new Quantity(num, den, binary);
}

/** A quantity from a JSON value (a ResourceList's string, or a number); zero when it is not one. */
export function quantityOf(value: unknown): Quantity {
  if (typeof value === 'number' && Number.isFinite(value)) return parseQuantity(String(value)) ?? ZERO;
  return (typeof value === 'string' ? parseQuantity(value) : undefined) ?? ZERO;
}

const BINARY_SUFFIXES: [string, bigint][] = Object.entries(BINARY).reverse();
const DECIMAL_SUFFIXES: [string, number][] = Object.entries(DECIMAL).sort((a, b) => b[1] - a[1]);

export function formatQuantity(q: Quantity): string {
  if (q.num === 0n) return '0';
  const sign = q.num < 0n ? '-' : '';
  const num = q.num < 0n ? -q.num : q.num;
  if (q.binary && q.den === 1n) {
    for (const [suffix, factor] of BINARY_SUFFIXES) if (num % factor === 0n) return `${sign}${num / factor}${suffix}`;
    // Under 1Ki, or not a whole number of Ki: Go prints it in decimal.
    if (num < 1024n) return `${sign}${num}`;
  }
  for (const [suffix, exponent] of DECIMAL_SUFFIXES) {
    const scaled = exponent >= 0 ? [num, q.den * 10n ** BigInt(exponent)] : [num * 10n ** BigInt(-exponent), q.den];
    if (scaled[0]! % scaled[1]! === 0n) return `${sign}${scaled[0]! / scaled[1]!}${suffix}`;
  }
  // Finer than a nano: resource.Quantity rounds up to the next nano.
  const nanos = (num * 10n ** 9n + q.den - 1n) / q.den;
  return `${sign}${nanos}n`;
}
