import { appendToRootArray, parseJsonc } from './jsoncText.ts';
import type { Project } from './project.ts';

// Launch configurations for Controller Lab's debugger, as examples/go-guestbook has them: one that
// stops before the first reconcile on the simulated cluster with the starter scenario, one with Go
// line breakpoints through Delve. A configuration of ours for the same program means there is
// nothing to add; the user's configurations and comments are kept as they are.

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
}

export type LaunchResult = { kind: 'changed'; text: string; names: string[] } | { kind: 'unchanged'; why: string } | { kind: 'unreadable'; why: string };

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
  if (Array.isArray(list) && list.some((c: { type?: unknown; program?: unknown }) => c?.type === 'controller-lab' && sameProgram(c.program, input.program))) {
    return { kind: 'unchanged', why: `it has a controller-lab configuration for ${input.program}` };
  }
  const unit = indentUnit(existing);
  const text = appendToRootArray(existing, 'configurations', configs.map((c) => render(c, unit + unit, unit)), unit);
  return text === undefined ? { kind: 'unreadable', why: 'its root is not an object with a configurations list' } : { kind: 'changed', text, names };
}

export function addLaunchConfigurationsTo(project: Project, input: LaunchInput): void {
  const result = addLaunchConfigurations(project.read(LAUNCH_JSON), input);
  if (result.kind === 'changed') project.write(LAUNCH_JSON, result.text, `debug configurations "${result.names.join('", "')}"`);
  else if (result.kind === 'unchanged') project.unchanged(LAUNCH_JSON, result.why);
  else project.manual(LAUNCH_JSON, `${result.why}: add a configuration of type controller-lab for ${input.program} by hand`);
}
