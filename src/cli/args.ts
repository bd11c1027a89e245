import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

// Command-line parsing for subcommands: node:util's parseArgs, strict, with its errors turned into
// a UsageError the subcommand prints as one line (exit code 2).

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export function parseCommandLine<O extends OptionSpec>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/** Checks that `value` is one of `allowed`. */
export function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got "${value}")`);
}
