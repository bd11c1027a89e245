import { parseDuration } from '../vocabulary/duration.ts';

// The arguments faults take, in one vocabulary for every surface. A type reads a value as JSON or
// YAML gives it (the admin endpoint's body, a scenario step) and as a command line gives it (a
// string after a flag), and says in help what it takes.

/** An argument a fault cannot take; the message names the argument. */
export class FaultArgumentError extends Error {
  override readonly name = 'FaultArgumentError';
}

export interface ArgumentType<T> {
  /** What usage lines show for a value: `N`, `DURATION`, `RESOURCE`. */
  readonly placeholder: string;
  /** Reads `value` (JSON, YAML, or a command-line string) or throws a FaultArgumentError naming `name`. */
  parse(name: string, value: unknown): T;
  /** What a flag given bare on the command line means (`--drop-history`); none: it needs a value. */
  readonly bare?: T;
}

export interface Argument<T> {
  readonly type: ArgumentType<T>;
  readonly help: string;
  /** Set when the fault cannot run without it; the others have defaults their help names. */
  readonly required?: true;
}

/** A number, or a string holding one (command lines and YAML give strings). */
function numeric(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

export const text: ArgumentType<string> = {
  placeholder: 'TEXT',
  parse(name, value) {
    if (typeof value !== 'string') throw new FaultArgumentError(`${name} must be a string`);
    return value;
  },
};

/** A resource as kubectl names one: plural, singular, short name or kind, optionally `.group` (`deployments.apps`, `deploy`). */
export const resource: ArgumentType<string> = {
  placeholder: 'RESOURCE',
  parse(name, value) {
    if (typeof value !== 'string' || value === '') throw new FaultArgumentError(`${name} must name a resource, such as configmaps or deployments.apps`);
    return value;
  },
};

/** A user as a request is authenticated or impersonated: `controller-lab:checked`, `system:serviceaccount:NS:NAME`. */
export const user: ArgumentType<string> = {
  placeholder: 'USER',
  parse(name, value) {
    if (typeof value !== 'string' || value === '') throw new FaultArgumentError(`${name} must name a user, such as controller-lab:checked or system:serviceaccount:NS:NAME`);
    return value;
  },
};

export function number(min: number, max: number): ArgumentType<number> {
  return {
    placeholder: 'N',
    parse(name, value) {
      const n = numeric(value);
      if (n === undefined || n < min || n > max) throw new FaultArgumentError(`${name} must be a number between ${min} and ${max}`);
      return n;
    },
  };
}

/** Milliseconds: a number, or a duration such as 500ms or 2s. */
export function duration(maxMs: number): ArgumentType<number> {
  return {
    placeholder: 'DURATION',
    parse(name, value) {
      const ms = numeric(value) ?? parseDuration(value);
      if (ms === undefined || ms < 0 || ms > maxMs) throw new FaultArgumentError(`${name} must be a duration such as 500ms or 2s (or a number of milliseconds), at most ${maxMs} ms`);
      return ms;
    },
  };
}

export function oneOf<T extends number>(values: readonly T[]): ArgumentType<T> {
  return {
    placeholder: values.join('|'),
    parse(name, value) {
      const n = numeric(value);
      const found = values.find((v) => v === n);
      if (found === undefined) throw new FaultArgumentError(`${name} must be ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`);
      return found;
    },
  };
}

export const flag: ArgumentType<boolean> = {
  placeholder: 'true|false',
  bare: true,
  parse(name, value) {
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    throw new FaultArgumentError(`${name} must be true or false`);
  },
};

/** A resourceVersion, or `now` (the latest). */
export const revision: ArgumentType<number | 'now'> = {
  placeholder: 'RV|now',
  parse(name, value) {
    if (value === 'now') return 'now';
    const n = numeric(value);
    if (n === undefined || n < 0 || !Number.isInteger(n)) throw new FaultArgumentError(`${name} must be a resourceVersion (a whole number) or now`);
    return n;
  },
};
