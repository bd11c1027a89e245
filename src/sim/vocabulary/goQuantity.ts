// A resource.Quantity as apimachinery holds and prints it: parsed as ParseQuantity parses it (its
// int64 fast path: the value, the decimal scale, the format, and the string kept when it is already
// canonical), compared exactly, printed as String() prints it and as Go's %#v prints the struct,
// which validation errors quote.

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface GoQuantity {
  /** int64Amount.value and .scale (value × 10^scale); undefined off the int64 fast path. */
  value: bigint | undefined;
  scale: number;
  format: QuantityFormat;
  /** The string the Quantity keeps (its input when that is canonical), else ''. */
  s: string;
  /** The exact amount, num/den, for comparisons. */
  num: bigint;
  den: bigint;
}

const SYNTAX = /^([+-]?)0*(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const INT64_MAX = 2n ** 63n - 1n;

export function parseGoQuantity(text: string): GoQuantity | undefined {
  if (text === '0') return { value: 0n, scale: 0, format: 'DecimalSI', s: '0', num: 0n, den: 1n };
  const m = SYNTAX.exec(text);
  if (!m || (m[2] === '' && m[3] === undefined)) return undefined;
  const [, sign = '', whole = '', fraction = '', suffix = ''] = m;
  const positive = sign !== '-';
  const num = whole === '' ? '0' : whole;
  const binary = Object.hasOwn(BINARY, suffix);
  const exponent = binary ? BINARY[suffix]! : Object.hasOwn(DECIMAL, suffix) ? DECIMAL[suffix]! : Number(suffix.slice(1));
  const format: QuantityFormat = binary ? 'BinarySI' : Object.hasOwn(DECIMAL, suffix) ? 'DecimalSI' : 'DecimalExponent';
  // The exact amount.
  let exactNum = BigInt(`${num}${fraction}`) * (positive ? 1n : -1n);
  let exactDen = 10n ** BigInt(fraction.length);
  if (binary) exactNum *= 2n ** BigInt(exponent);
  else if (exponent >= 0) exactNum *= 10n ** BigInt(exponent);
  else exactDen *= 10n ** BigInt(-exponent);
  const q: GoQuantity = { value: undefined, scale: 0, format, s: '', num: exactNum, den: exactDen };
  // ParseQuantity's fast path: an int64 mantissa at a scale of at least nano.
  let scale = binary ? 0 : exponent;
  const mantissa = binary && fraction === '' ? 2n ** BigInt(exponent) : 1n;
  const precision = binary ? (fraction === '' ? 15 - num.length - Math.trunc((exponent * 3) / 10) - 1 : -1) : 18 - (num.length + fraction.length);
  if (precision < 0) return q;
  scale -= fraction.length;
  if (scale < -9) return q;
  const shifted = `${num}${fraction}`;
  const result = BigInt(shifted) * mantissa;
  if (result > INT64_MAX) return q;
  q.value = positive ? result : -result;
  q.scale = scale;
  const canonical = binary
    ? exponent % 10 === 0 && (BigInt(shifted) & 7n) !== 0n
    : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  if (canonical) q.s = text;
  return q;
}

export function compareQuantities(a: GoQuantity, b: GoQuantity): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

/** Go's %#v of the Quantity struct (off the fast path an *inf.Dec, whose address no one shares). */
export function goQuantityValue(q: GoQuantity): string {
  const amount = q.value === undefined ? 'value:0, scale:0' : `value:${q.value}, scale:${q.scale}`;
  const dec = q.value === undefined ? '(*inf.Dec)(0xc000000000)' : '(*inf.Dec)(nil)';
  return `resource.Quantity{i:resource.int64Amount{${amount}}, d:resource.infDecAmount{Dec:${dec}}, s:${JSON.stringify(q.s)}, Format:${JSON.stringify(q.format)}}`;
}

const DECIMAL_SUFFIX: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** Quantity.String(): the kept string, else the canonical form of the int64 amount. */
export function quantityString(q: GoQuantity): string {
  if (q.s) return q.s;
  if (q.value === undefined) return `${q.num}/${q.den}`;
  let format = q.format;
  if (format === 'BinarySI') {
    const whole = q.scale >= 0 || q.value % 10n ** BigInt(-q.scale) === 0n;
    const small = q.num < 1024n * q.den && q.num > -1024n * q.den;
    if (small || !whole) format = 'DecimalSI';
    else {
      let n = q.scale >= 0 ? q.value * 10n ** BigInt(q.scale) : q.value / 10n ** BigInt(-q.scale);
      let i = 0;
      while (n !== 0n && n % 1024n === 0n && i < BINARY_SUFFIX.length - 1) {
        n /= 1024n;
        i++;
      }
      return `${n}${BINARY_SUFFIX[i]}`;
    }
  }
  // int64Amount.AsCanonicalBytes: no trailing zeros, then an exponent that is a multiple of 3.
  let amount = q.value;
  let exponent = q.scale;
  while (amount !== 0n && amount % 10n === 0n) {
    amount /= 10n;
    exponent++;
  }
  const r = ((exponent % 3) + 3) % 3;
  amount *= 10n ** BigInt(r);
  exponent -= r;
  if (format === 'DecimalExponent') return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
  return `${amount}${DECIMAL_SUFFIX[exponent] ?? `e${exponent}`}`;
}
