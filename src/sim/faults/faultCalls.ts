import { FaultArgumentError } from './faultArguments.ts';
import type { Fault } from './faultTable.ts';

// A fault as each surface calls it, read with the table's argument types: from a map of arguments
// (the admin endpoint's JSON body, a scenario step's YAML), from command-line flags, or from the
// value a scenario step gives alone; and the usage line help shows for it.

type Args = Record<string, unknown>;

const isMap = (v: unknown): v is Args => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `latencyMs` → `--latency-ms`. */
export function flagOf(arg: string): string {
  return `--${arg.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

function missing(fault: Fault, args: Args): void {
  for (const [name, arg] of Object.entries(fault.args)) {
    if (arg.required && args[name] === undefined) throw new FaultArgumentError(`${name} is required`);
  }
}

/** The arguments from a map of them by name; a name the fault does not take is refused. */
export function faultArgsFrom(fault: Fault, given: Args): Args {
  const args: Args = {};
  for (const [name, value] of Object.entries(given)) {
    const arg = fault.args[name];
    if (!arg) throw new FaultArgumentError(`${fault.name} takes ${takes(fault)}, not ${name}`);
    if (value !== undefined && value !== null) args[name] = arg.type.parse(name, value);
  }
  missing(fault, args);
  return args;
}

/**
 * The arguments a scenario step gives: a map of them, nothing (`true`, or no value), or the
 * fault's shorthand argument alone (`compact: now`, `delay-events: 500ms`).
 */
export function faultArgsOfStep(fault: Fault, value: unknown): Args {
  if (value === true || value === null || value === undefined) return faultArgsFrom(fault, {});
  if (isMap(value)) return faultArgsFrom(fault, value);
  if (fault.shorthand) return faultArgsFrom(fault, { [fault.shorthand]: value });
  throw new FaultArgumentError(`${fault.name} takes ${takes(fault)}: give true or a map of them`);
}

/** The arguments from command-line flags: `--resource-version 42`, `--drop-history` (a flag alone means true). */
export function faultArgsFromFlags(fault: Fault, tokens: readonly string[]): Args {
  const byFlag = new Map(Object.keys(fault.args).map((name) => [flagOf(name), name]));
  const given: Args = {};
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const eq = token.indexOf('=');
    const flag = eq > 0 ? token.slice(0, eq) : token;
    const name = byFlag.get(flag);
    if (!name) throw new FaultArgumentError(`${fault.name} takes ${takes(fault, flagOf)}, not ${flag}`);
    const next = tokens[i + 1];
    const bare = fault.args[name]!.type.bare;
    if (eq > 0) given[name] = token.slice(eq + 1);
    else if (next !== undefined && !next.startsWith('--') && (bare === undefined || next === 'true' || next === 'false')) given[name] = tokens[++i];
    else if (bare !== undefined) given[name] = bare;
    else throw new FaultArgumentError(`${flag} needs a value`);
  }
  return faultArgsFrom(fault, given);
}

/** `no arguments`, or `resource, namespace or name`. */
function takes(fault: Fault, spell: (name: string) => string = (n) => n): string {
  const names = Object.keys(fault.args).map(spell);
  if (names.length === 0) return 'no arguments';
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** `conflict --resource RESOURCE [--namespace TEXT] --name TEXT`: how the CLI calls the fault. */
export function faultUsage(fault: Fault): string {
  const flags = Object.entries(fault.args).map(([name, arg]) => {
    const flag = arg.type.bare === undefined ? `${flagOf(name)} ${arg.type.placeholder}` : flagOf(name);
    return arg.required ? flag : `[${flag}]`;
  });
  return [fault.name, ...flags].join(' ');
}


/** The usage line, what the fault does, and each argument's flag with its help. */
export function faultHelp(fault: Fault): string {
  const rows = Object.entries(fault.args).map(([name, arg]) => [arg.type.bare === undefined ? `${flagOf(name)} ${arg.type.placeholder}` : flagOf(name), arg.help]);
  const width = Math.max(0, ...rows.map(([flag]) => flag!.length));
  return [faultUsage(fault), `  ${fault.help}`, ...rows.map(([flag, help]) => `  ${flag!.padEnd(width)}  ${help}`)].join('\n') + '\n';
}
