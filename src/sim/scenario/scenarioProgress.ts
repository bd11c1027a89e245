import type { ScenarioRunHandle } from '../simObjects.ts';
import type { ScenarioAction, ScheduledStep } from './scenarioTypes.ts';
import { faultNamed } from '../faults/faultTable.ts';

// What a running scenario is doing, said as it happens: one line per step as it runs — a repeated
// step (`repeat: count: 1000`) is one line when it starts and one when its last run is done, not a
// thousand — then a last line when the scenario finished.

function ref(t: { kind: string; namespace?: string; name: string }): string {
  return `${t.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.name}`;
}

/** `patch ConfigMap ui-demo/frontend`, `drop watches (deployments.apps)`, `compact history`. */
export function describeAction(a: ScenarioAction): string {
  switch (a.type) {
    case 'create':
    case 'apply':
    case 'update':
      return `${a.type} ${a.object.kind ?? 'object'} ${a.object.metadata.namespace ? `${a.object.metadata.namespace}/` : ''}${a.object.metadata.name ?? a.object.metadata.generateName ?? ''}`;
    case 'patch': return `patch ${ref(a.target)}`;
    case 'delete': return `delete ${ref(a.target)}`;
    case 'scale': return `scale ${ref(a.target)} to ${a.replicas}`;
    case 'label': return `label ${ref(a.target)}`;
    case 'fault': return faultNamed(a.fault)?.describe(a.args) ?? a.fault;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

export interface ScenarioProgress {
  /** Lines for the steps run since the last call. */
  poll(): string[];
}

/**
 * Follows a run by its `stepsRun` counter (the runner runs steps in order), so it needs nothing from
 * the runner beyond what it already exposes.
 */
export function followScenario(steps: readonly ScheduledStep[], run: { readonly stepsRun: number }): ScenarioProgress {
  let printed = 0;
  // Runs of one repeated step read `steps[0].repeat#7`: they count as one step, `steps[0]`.
  const sourceOf = (s: ScheduledStep) => s.source.replace(/\.repeat#\d+$/, '');
  const total = new Map<string, number>();
  const seenSoFar = new Map<string, number>();
  for (const s of steps) total.set(sourceOf(s), (total.get(sourceOf(s)) ?? 0) + 1);
  const started = new Set<string>();
  return {
    poll() {
      const lines: string[] = [];
      const upTo = Math.min(run.stepsRun, steps.length);
      for (; printed < upTo; printed++) {
        const step = steps[printed]!;
        const source = sourceOf(step);
        const times = total.get(source) ?? 1;
        const what = describeAction(step.action);
        if (times === 1) {
          lines.push(`  ${seconds(step.at).padStart(6)}  ${source}: ${what}`);
          continue;
        }
        const seen = (seenSoFar.get(source) ?? 0) + 1;
        seenSoFar.set(source, seen);
        if (!started.has(source)) {
          started.add(source);
          lines.push(`  ${seconds(step.at).padStart(6)}  ${source}: ${what} — ${times} times…`);
        }
        if (seen === times) lines.push(`  ${seconds(step.at).padStart(6)}  ${source}: done (${times} times)`);
      }
      return lines;
    },
  };
}

/** Prints a scenario's steps as they run and when it finished; resolves with the run's outcome. */
export function printScenarioProgress(
  run: ScenarioRunHandle & {
    readonly stepsRun: number;
    readonly scenario: { steps: readonly ScheduledStep[]; objects: readonly unknown[] };
    readonly errors?: readonly { line: number; path: string; message: string }[];
    readonly warnings?: readonly string[];
  },
  fileName: string,
  write: (line: string) => void,
  pollMs = 100,
): Promise<void> {
  const { steps, objects } = run.scenario;
  for (const warning of run.warnings ?? []) write(`warning: ${warning}`);
  write(`Scenario ${fileName} started: ${objects.length} object${objects.length === 1 ? '' : 's'} applied, ${steps.length} step${steps.length === 1 ? '' : 's'} to run.`);
  const progress = followScenario(steps, run);
  const timer = setInterval(() => progress.poll().forEach(write), pollMs);
  const started = Date.now();
  return run.done.then(
    () => {
      clearInterval(timer);
      progress.poll().forEach(write);
      const failed = run.errors ?? [];
      for (const e of failed) write(`  step ${e.path} (line ${e.line}) failed: ${e.message}`);
      write(`Scenario ${fileName} finished after ${seconds(Date.now() - started)} (${run.stepsRun} of ${steps.length} steps run${failed.length ? `, ${failed.length} failed` : ''}).`);
    },
    (err: unknown) => {
      clearInterval(timer);
      progress.poll().forEach(write);
      write(`Scenario ${fileName} failed: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    },
  );
}
