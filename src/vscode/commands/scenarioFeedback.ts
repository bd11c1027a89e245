import * as vscode from 'vscode';
import { followScenario } from '../../sim/index.ts';
import type { ScheduledStep, ScenarioRunHandle } from '../../sim/index.ts';
import type { Log } from '../guard.ts';

// A loaded scenario says that it started, what it is doing, and that it finished: a progress
// notification (cancellable: Cancel stops the remaining steps) that follows its steps, then a
// message naming how it ended. The output channel gets every step, as the CLI prints them.

interface FollowableRun extends ScenarioRunHandle {
  readonly stepsRun: number;
  readonly scenario: { steps: readonly ScheduledStep[]; objects: readonly unknown[] };
  readonly errors?: readonly { line: number; path: string; message: string }[];
}

function isFollowable(run: ScenarioRunHandle): run is FollowableRun {
  const r = run as Partial<FollowableRun>;
  return typeof r.stepsRun === 'number' && Array.isArray(r.scenario?.steps);
}

const POLL_MS = 200;

/** Shows the run's progress; resolves with the message shown at the end (tests read it). */
export function reportScenario(run: ScenarioRunHandle, fileName: string, log: Log): Promise<string> {
  const started = Date.now();
  const steps = isFollowable(run) ? run.scenario.steps : [];
  const objects = isFollowable(run) ? run.scenario.objects.length : 0;
  const startLine = `Scenario ${fileName} started: ${objects} object${objects === 1 ? '' : 's'} applied, ${steps.length} step${steps.length === 1 ? '' : 's'} to run.`;
  log.info(startLine);
  return Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Scenario ${fileName}`, cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => {
          run.stop();
          log.info(`scenario ${fileName} stopped by the user`);
        });
        progress.report({ message: steps.length ? `started — ${steps.length} steps to run` : 'started' });
        if (!isFollowable(run)) {
          await run.done;
          return;
        }
        const follow = followScenario(steps, run);
        const timer = setInterval(() => {
          const lines = follow.poll();
          for (const line of lines) log.info(line.trim());
          const done = Math.min(run.stepsRun, steps.length);
          if (lines.length) progress.report({ message: `${done}/${steps.length} — ${lines.at(-1)!.trim()}`, increment: undefined });
        }, POLL_MS);
        try {
          await run.done;
        } finally {
          clearInterval(timer);
          for (const line of follow.poll()) log.info(line.trim());
        }
      },
    ),
  ).then(
    () => {
      const failed = isFollowable(run) ? (run.errors ?? []) : [];
      for (const e of failed) log.warn(`scenario ${fileName}: step ${e.path} (line ${e.line}) failed: ${e.message}`);
      const ran = isFollowable(run) ? `${run.stepsRun} of ${steps.length} steps run` : 'done';
      const message = `Controller Lab: scenario ${fileName} finished after ${((Date.now() - started) / 1000).toFixed(1)}s (${ran}${failed.length ? `, ${failed.length} failed — see the output` : ''}).`;
      log.info(message);
      if (failed.length) void vscode.window.showWarningMessage(message);
      else void vscode.window.showInformationMessage(message);
      return message;
    },
  );
}
