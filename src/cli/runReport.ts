import type { WriteStream } from 'node:fs';
import { describeRecord, InformerErrors, reportRbacHints, sayBuildProgress, traceLine, type ControllerSession } from '../runtime/index.ts';
import type { RunTally } from './runTally.ts';

// What `controller-lab run` prints while the controller runs: a line per reconcile, its log lines,
// informer errors and RBAC hints once each, and the controller host's failures.

export interface RunOutput {
  /** stdout, unless --quiet. */
  out(line: string): void;
  /** stderr, prefixed with `controller-lab run: `. */
  complain(line: string): void;
}

export interface SessionReport {
  informerErrors: InformerErrors;
  /** A host failure was reported in full (its exit needs no second line). */
  readonly hostFailed: boolean;
  /** The session's fatal error was reported. */
  readonly fatal: boolean;
}

export function reportSession(s: ControllerSession, io: RunOutput, tally: RunTally, trace: WriteStream | undefined): SessionReport {
  const report = { informerErrors: new InformerErrors(), hostFailed: false, fatal: false };
  s.on('ready', ({ controller }) => io.out(`controller ${controller.name}: for ${controller.forKind.kind}, ${controller.workers} worker(s)`));
  s.on('reconcileEnd', ({ record }) => {
    tally.reconciled(record);
    io.out(describeRecord(record));
    // API errors explain themselves; anything else gets its stack (source-mapped to the user's file).
    const err = record.outcome?.kind === 'error' ? record.outcome.error : undefined;
    if (err && err.name !== 'ApiError' && err.stack) process.stderr.write(`  ${err.stack}\n`);
    trace?.write(traceLine(record) + '\n');
  });
  s.on('log', ({ line, record, uncaught }) => {
    if (uncaught) tally.uncaught();
    const where = record ? ` [#${record.seq} ${record.key}]` : '';
    const text = `  ${line.level}${where}: ${line.message}${line.fields ? ' ' + JSON.stringify(line.fields) : ''}`;
    if (line.level === 'error') process.stderr.write(text + '\n');
    else io.out(text);
  });
  s.on('probe', ({ probe }) => {
    const line = report.informerErrors.lineFor(probe);
    if (line) io.complain(line);
  });
  reportRbacHints(s, (hint) => io.complain(hint));
  s.on('output', ({ stream, text }) => (stream === 'stderr' ? process.stderr : process.stdout).write(text));
  s.on('hostFailed', ({ message, restarting }) => {
    tally.hostFailed(restarting);
    report.hostFailed = true;
    io.complain(`${message}${restarting ? '; restarting it (the key is retried with backoff)' : ''}`);
  });
  s.on('fatal', ({ phase, message }) => {
    // A host failure was just reported in full.
    if (!report.hostFailed || phase !== 'run') io.complain(`${phase === 'compile' ? '' : `${phase} failed: `}${message}`);
    report.fatal = true;
  });
  return report;
}

/** While a Go program builds: a line every 20 s, since a first build of controller-runtime takes minutes. */
export function showBuildProgress(io: RunOutput): (built: boolean) => void {
  return sayBuildProgress((line) => io.out(line));
}
