import type { Plan } from '../../check/index.ts';

// What a check runs, whoever asked for it (the command, a launch configuration with "check": true):
// enough to run it again, and to replay one of its findings in the reconcile debugger.

export interface CheckTarget {
  /** A TypeScript controller file, or a Go program (its directory, main.go or package path), as an absolute path. */
  program: string;
  /** The scenario every run starts from (absolute). */
  scenario: string;
  /** The sim's workload controllers: `true` or the launch configuration's options. */
  workloads?: unknown;
  /** Run the controller as this user (its RBAC applies). */
  as?: string;
  /** A Go program's own arguments. */
  args?: string[];
  /** The workspace folder the controller lives in (the Go program's working directory). */
  cwd?: string;
}

/** The reconcile debugger's launch configuration that replays `plan` of a check of `target`. */
export function replayLaunchConfiguration(target: CheckTarget, plan: Plan, name: string): Record<string, unknown> {
  const isGo = target.program.endsWith('.go') || !/\.[cm]?[jt]s$/.test(target.program);
  return {
    // The reconcile debugger's type (src/debug/vscode/debugType.ts).
    type: 'controller-lab',
    request: 'launch',
    name,
    ...(isGo ? { program: target.program } : { controller: target.program }),
    scenario: target.scenario,
    cluster: 'sim',
    ...(target.workloads ? { workloads: target.workloads } : {}),
    ...(target.as ? { runAs: target.as } : {}),
    ...(target.args?.length ? { args: target.args } : {}),
    ...(target.cwd ? { cwd: target.cwd } : {}),
    checkPlan: plan,
  };
}
