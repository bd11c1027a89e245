import type { Environment } from '@marcbachmann/cel-js';
import { Quantity, parseQuantity } from '../../vocabulary/quantity.ts';

// Kubernetes' quantity library for CEL (quantity("1.5Gi"), isQuantity, comparisons and
// arithmetic), on the exact fractions of vocabulary/quantity.ts.

const INT64_MAX = 2n ** 63n - 1n;

function celQuantity(text: string): Quantity {
  const q = parseQuantity(text);
  if (!q) throw new Error('quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'');
  return q;
}

const fromInt = (i: bigint): Quantity => new Quantity(i, 1n);

export function registerQuantity(env: Environment): void {
  const T = 'kubernetes.Quantity';
  env.registerType(T, Quantity);
  env.registerFunction(`quantity(string): ${T}`, celQuantity);
  env.registerFunction('isQuantity(string): bool', (s: string) => parseQuantity(s) !== undefined);
  env.registerFunction(`${T}.sign(): int`, (q: Quantity) => BigInt(q.compare(fromInt(0n))));
  env.registerFunction(`${T}.isGreaterThan(${T}): bool`, (a: Quantity, b: Quantity) => a.compare(b) > 0);
  env.registerFunction(`${T}.isLessThan(${T}): bool`, (a: Quantity, b: Quantity) => a.compare(b) < 0);
  env.registerFunction(`${T}.compareTo(${T}): int`, (a: Quantity, b: Quantity) => BigInt(a.compare(b)));
  env.registerFunction(`${T}.add(${T}): ${T}`, (a: Quantity, b: Quantity) => a.plus(b, 1n));
  env.registerFunction(`${T}.add(int): ${T}`, (a: Quantity, b: bigint) => a.plus(fromInt(b), 1n));
  env.registerFunction(`${T}.sub(${T}): ${T}`, (a: Quantity, b: Quantity) => a.plus(b, -1n));
  env.registerFunction(`${T}.sub(int): ${T}`, (a: Quantity, b: bigint) => a.plus(fromInt(b), -1n));
  env.registerFunction(`${T}.isInteger(): bool`, (q: Quantity) => q.den === 1n && q.num <= INT64_MAX && q.num >= -INT64_MAX - 1n);
  env.registerFunction(`${T}.asInteger(): int`, (q: Quantity) => {
    if (q.den !== 1n || q.num > INT64_MAX || q.num < -INT64_MAX - 1n) throw new Error('cannot convert value to integer');
    return q.num;
  });
  env.registerFunction(`${T}.asApproximateFloat(): double`, (q: Quantity) => Number(q.num) / Number(q.den));
  env.registerOperator(`${T} == ${T}`, (a: Quantity, b: Quantity) => a.compare(b) === 0);
}
