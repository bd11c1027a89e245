import { appendToRootArray, parseJsonc } from './jsoncText.ts';
import type { Project } from './project.ts';

// Launch configurations for Controller Lab's debugger, as examples/go-guestbook has them: one that
// stops before the first reconcile on the simulated cluster with the starter scenario, one with Go
// line breakpoints through Delve. A configuration of ours for the same program means there is
// nothing to add; the user's configurations and comments are kept as they are. One that lacks a
// variable a local run now needs (one the manager Deployment sets since, as BUSYBOX_IMAGE) is named
// with what to add, since the manager it starts would fail without it; one that still turns the
// webhooks off, as an earlier Controller Lab wrote it, is named with what to remove.

export const LAUNCH_JSON = '.vscode/launch.json';

export interface LaunchInput {
  /** Names the configurations: `memcached-operator (simulated cluster)`. */
  projectName: string;
  /** The main package, relative to the workspace folder: `./cmd`. */
  program: string;
  /** The starter scenario, relative to the workspace folder. */
  scenario: string;
  /** Added to the program's environment. */
  env?: Record<string, string>;
  /** Why `env` is needed, for the advice to a configuration that lacks some of it. */
  envNote?: string;
}

export type LaunchResult =
  | { kind: 'changed'; text: string; names: string[] }
  | { kind: 'unchanged'; why: string }
  | { kind: 'unreadable'; why: string }
  /** Our configurations for the program that lack variables of `env`, or turn its webhooks off: `advice` says what to change. */
  | { kind: 'missingEnv'; advice: string };

export function launchConfigurations({ projectName, program, scenario, env }: LaunchInput): Record<string, unknown>[] {
  const configuration = (name: string, extra: Record<string, unknown>) => ({
    type: 'controller-lab',
    request: 'launch',
    name,
    program,
    cwd: '${workspaceFolder}',
    cluster: 'sim',
    scenario: `\${workspaceFolder}/${scenario}`,
    ...(env && Object.keys(env).length ? { env } : {}),
    ...extra,
  });
  return [
    configuration(`${projectName} (simulated cluster)`, { stopOnEntry: true }),
    configuration(`${projectName} (simulated cluster, Go line breakpoints through Delve)`, { lineBreakpoints: true }),
  ];
}

/** `./cmd`, `cmd`, `${workspaceFolder}/cmd/` are one program. */
function sameProgram(a: unknown, b: string): boolean {
  const norm = (p: string) => p.replace(/^\$\{workspaceFolder\}\/?/, '').replace(/^\.\//, '').replace(/\/+$/, '') || '.';
  return typeof a === 'string' && norm(a) === norm(b);
}

/** The file's indentation step (two spaces when it has none). */
function indentUnit(text: string): string {
  return /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
}

function render(config: Record<string, unknown>, indent: string, unit: string): string {
  return JSON.stringify(config, null, unit).split('\n').map((l) => indent + l).join('\n');
}

export function addLaunchConfigurations(existing: string | undefined, input: LaunchInput): LaunchResult {
  const configs = launchConfigurations(input);
  const names = configs.map((c) => String(c.name));
  if (existing === undefined || existing.trim() === '') {
    return { kind: 'changed', text: `${JSON.stringify({ version: '0.2.0', configurations: configs }, null, 2)}\n`, names };
  }
  let parsed: unknown;
  try {
    parsed = parseJsonc(existing);
  } catch (err) {
    return { kind: 'unreadable', why: `it is not valid JSON with comments (${(err as Error).message})` };
  }
  const list = (parsed as { configurations?: unknown } | null)?.configurations;
  const ours = (Array.isArray(list) ? list : []).filter((c: { type?: unknown; program?: unknown }) => c?.type === 'controller-lab' && sameProgram(c.program, input.program)) as LaunchConfiguration[];
  if (ours.length) {
    const advice = [missingEnvAdvice(ours, input), webhooksOffAdvice(ours)].filter((a) => a !== undefined).join('; ') || undefined;
    return advice ? { kind: 'missingEnv', advice } : { kind: 'unchanged', why: `it has a controller-lab configuration for ${input.program}` };
  }
  const unit = indentUnit(existing);
  const text = appendToRootArray(existing, 'configurations', configs.map((c) => render(c, unit + unit, unit)), unit);
  return text === undefined ? { kind: 'unreadable', why: 'its root is not an object with a configurations list' } : { kind: 'changed', text, names };
}

interface LaunchConfiguration {
  name?: unknown;
  env?: Record<string, unknown> | null;
}

/** `"web (simulated cluster)" sets no BUSYBOX_IMAGE: add "BUSYBOX_IMAGE": "busybox:1.36.1" to its "env" (why)`, or undefined. */
function missingEnvAdvice(configs: LaunchConfiguration[], { env = {}, envNote }: LaunchInput): string | undefined {
  const lacking = configs.flatMap((c) => {
    const missing = Object.keys(env).filter((k) => typeof c.env !== 'object' || c.env === null || !(k in c.env));
    return missing.length ? [{ name: typeof c.name === 'string' ? c.name : 'a controller-lab configuration', missing }] : [];
  });
  if (!lacking.length) return undefined;
  const missing = [...new Set(lacking.flatMap((l) => l.missing))];
  const names = lacking.map((l) => `"${l.name}"`).join(', ');
  const add = missing.map((k) => `${JSON.stringify(k)}: ${JSON.stringify(env[k])}`).join(', ');
  return `${names} ${lacking.length > 1 ? 'set' : 'sets'} no ${missing.join(', ')}: add ${add} to ${lacking.length > 1 ? 'their' : 'its'} "env"${envNote ? ` (${envNote})` : ''}`;
}

/**
 * Earlier versions wrote "ENABLE_WEBHOOKS": "false" (a kubebuilder main needed it outside a
 * cluster); now the webhooks are served on the simulated cluster, and that line keeps them off.
 */
function webhooksOffAdvice(configs: LaunchConfiguration[]): string | undefined {
  const off = configs.filter((c) => typeof c.env === 'object' && c.env !== null && String(c.env.ENABLE_WEBHOOKS).toLowerCase() === 'false');
  if (!off.length) return undefined;
  const names = off.map((c) => `"${typeof c.name === 'string' ? c.name : 'a controller-lab configuration'}"`).join(', ');
  return `${names} ${off.length > 1 ? 'set' : 'sets'} "ENABLE_WEBHOOKS": "false", which an earlier Controller Lab wrote: its webhooks now run on the simulated cluster (Controller Lab serves them with a certificate of its own); remove it from ${off.length > 1 ? 'their' : 'its'} "env" to have them`;
}

export function addLaunchConfigurationsTo(project: Project, input: LaunchInput): void {
  const result = addLaunchConfigurations(project.read(LAUNCH_JSON), input);
  if (result.kind === 'changed') project.write(LAUNCH_JSON, result.text, `debug configurations "${result.names.join('", "')}"`);
  else if (result.kind === 'unchanged') project.unchanged(LAUNCH_JSON, result.why);
  else if (result.kind === 'missingEnv') project.manual(LAUNCH_JSON, result.advice);
  else project.manual(LAUNCH_JSON, `${result.why}: add a configuration of type controller-lab for ${input.program} by hand`);
}
