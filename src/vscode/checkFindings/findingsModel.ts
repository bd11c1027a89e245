import { basename } from 'node:path';
import { programName } from '../../runtime/index.ts';
import { describeReport, isRecreation, type CheckReport, type Finding, type FindingClass, type FindingReconcile } from '../../check/index.ts';
import type { IconSpec, ItemSpec } from '../tree/treeModel.ts';
import type { CheckTarget } from './checkTarget.ts';

// The Check Findings view's content, without VS Code: the last check's findings as they come in,
// each with what was done to its run, how the run's end state differed from the reference runs',
// the reconciles where it went its own way, and the command that replays it; and one line that
// says where the check stands (the view's message).

/** A finding's node carries what Replay in Debugger needs. */
export interface FindingRef {
  target: CheckTarget;
  finding: Finding;
  /** Its number in the check (1-based), as the output channel numbers it. */
  n: number;
}

export interface FindingsNode {
  id: string;
  kind: 'finding' | 'replayAction' | 'perturbation' | 'endState' | 'diffLine' | 'reconciles' | 'reconcile' | 'write' | 'replayCommand' | 'alsoReproduced';
  item: ItemSpec;
  children: FindingsNode[];
  ref: FindingRef;
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'running'; done: number; planned: number | undefined }
  | { kind: 'done'; report: CheckReport }
  | { kind: 'failed'; message: string };

const CLASS_ICONS: Record<FindingClass, string> = {
  'stale-state': 'history',
  'intermediate-state': 'debug-restart',
  'unobserved-state': 'eye-closed',
  'not-idempotent': 'sync',
};

const ERROR = 'problemsErrorIcon.foreground';

export class FindingsModel {
  private target: CheckTarget | undefined;
  private phase: Phase = { kind: 'idle' };
  private findings: FindingsNode[] = [];
  /** Each check's nodes get ids of their own, so nothing of the last check stays expanded. */
  private check = 0;
  private readonly listeners = new Set<() => void>();

  get running(): boolean {
    return this.phase.kind === 'running';
  }

  /** The findings so far, one node each. */
  roots(): FindingsNode[] {
    return this.findings;
  }

  /** A check of `target` starts: the last one's findings go. */
  start(target: CheckTarget): void {
    this.target = target;
    this.check++;
    this.findings = [];
    this.phase = { kind: 'running', done: 0, planned: undefined };
    this.changed();
  }

  add(finding: Finding): void {
    if (!this.target) return;
    this.findings.push(findingNode({ target: this.target, finding, n: this.findings.length + 1 }, `c${this.check}`));
    this.changed();
  }

  progress(done: number, planned: number): void {
    if (this.phase.kind !== 'running') return;
    this.phase = { kind: 'running', done, planned };
    this.changed();
  }

  /** The report's findings replace those that came in: a later run may have explained an earlier finding more simply. */
  finish(report: CheckReport): void {
    this.phase = { kind: 'done', report };
    if (this.target) {
      const target = this.target;
      this.findings = report.findings.map((finding, i) => findingNode({ target, finding, n: i + 1 }, `c${this.check}`));
    }
    this.changed();
  }

  fail(message: string): void {
    this.phase = { kind: 'failed', message };
    this.changed();
  }

  /** Where the check stands, above the findings (undefined: nothing to say; the welcome text shows). */
  message(): string | undefined {
    const what = this.target ? `${programName(this.target.program)} with ${basename(this.target.scenario)}` : '';
    switch (this.phase.kind) {
      case 'idle':
        return undefined;
      case 'running': {
        const { done, planned } = this.phase;
        const runs = planned === undefined ? 'reference runs' : `run ${done} of ${planned}`;
        return `Checking ${what}: ${runs}, ${this.findings.length} finding(s) so far`;
      }
      case 'done':
        return `${what}: ${describeReport(this.phase.report).replace(/^check: /, '')}`;
      case 'failed':
        return `${what}: the check failed — ${this.phase.message}`;
    }
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

/** A row; a command on it gets the row as its argument (the view fills it in). */
function node(ref: FindingRef, kind: FindingsNode['kind'], id: string, item: Omit<ItemSpec, 'id' | 'contextValue' | 'collapsible'> & Partial<Pick<ItemSpec, 'contextValue'>>, children: FindingsNode[] = []): FindingsNode {
  return { id, kind, ref, children, item: { id, contextValue: kind, collapsible: children.length ? 'collapsed' : 'none', ...item } };
}

function icon(id: string, color?: string): IconSpec {
  return color ? { id, color } : { id };
}

function findingNode(ref: FindingRef, check: string): FindingsNode {
  const { finding: f, n } = ref;
  const id = `${check}:${n}`;
  const children = [
    node(ref, 'replayAction', `${id}:replay`, {
      label: 'Replay in Debugger',
      description: 'stop where the run diverged',
      icon: icon('debug-alt'),
      command: { command: 'controllerLab.replayFinding', title: 'Replay in Debugger', arguments: [] },
    }),
    node(ref, 'perturbation', `${id}:perturbation`, { label: f.perturbation, description: 'what was done', icon: icon('zap'), tooltip: `**What was done to the run**\n\n${f.perturbation}` }),
  ];
  if (f.diff) {
    const lines = diffNodes(ref, `${id}:diff`, f.diff);
    children.push(node(ref, 'endState', `${id}:diff`, { label: f.class === 'not-idempotent' ? 'Writes with nothing to do' : isRecreation(f) ? 'Deleted and made again, against the reference runs' : 'End state against the reference runs', description: `${f.objects.length || lines.length} difference(s)`, icon: icon('diff') }, lines));
  }
  if (f.reconciles.length) {
    const reconciles = f.reconciles.map((r, i) => reconcileNode(ref, `${id}:r${i}`, r));
    children.push(node(ref, 'reconciles', `${id}:reconciles`, { label: 'Where the run went its own way', description: `${f.reconciles.length} reconcile(s)`, icon: icon('git-compare') }, reconciles));
  }
  children.push(
    node(ref, 'replayCommand', `${id}:command`, {
      label: 'Replay command',
      description: f.replay,
      icon: icon('terminal'),
      tooltip: `Copy the command that replays this run:\n\n\`\`\`sh\n${f.replay}\n\`\`\``,
      command: { command: 'controllerLab.copyReplayCommand', title: 'Copy Replay Command', arguments: [] },
    }),
  );
  const also = f.alsoReproducedBy ?? [];
  if (also.length) {
    const rows = also.map((r, i) => node(ref, 'perturbation', `${id}:also${i}`, { label: r.perturbation, description: r.class, icon: icon('zap'), tooltip: `**Also reproduced by** (${r.class} alone)\n\n${r.perturbation}\n\n\`\`\`sh\n${r.replay}\n\`\`\`` }));
    children.push(node(ref, 'alsoReproduced', `${id}:also`, { label: 'Also reproduced by', description: `${also.length} other perturbation(s): the same bug, explained more simply by this one`, icon: icon('layers') }, rows));
  }
  return node(ref, 'finding', id, {
    label: `${n}. ${f.summary}`,
    description: f.class,
    icon: icon(CLASS_ICONS[f.class], ERROR),
    tooltip: `**${f.class}** — ${f.summary}\n\nReplay in Debugger stops at the first reconcile after the perturbation.`,
  }, children);
}

/** Diff lines nested by their indentation: an object's changed fields under it, the values under each field. */
function diffNodes(ref: FindingRef, id: string, diff: string): FindingsNode[] {
  const roots: FindingsNode[] = [];
  const stack: { indent: number; node: FindingsNode }[] = [];
  diff.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const indent = line.length - line.trimStart().length;
    const text = line.trim();
    const sign = text[0];
    const lineIcon = sign === '+' ? icon('diff-added', 'gitDecoration.addedResourceForeground') : sign === '-' ? icon('diff-removed', 'gitDecoration.deletedResourceForeground') : sign === '~' ? icon('diff-modified', 'gitDecoration.modifiedResourceForeground') : icon('symbol-field');
    const child = node(ref, 'diffLine', `${id}:${i}`, { label: text, icon: lineIcon, tooltip: text });
    while (stack.length && stack.at(-1)!.indent >= indent) stack.pop();
    const parent = stack.at(-1)?.node;
    if (parent) {
      parent.children.push(child);
      parent.item.collapsible = 'expanded';
    } else roots.push(child);
    stack.push({ indent, node: child });
  });
  return roots;
}

function reconcileNode(ref: FindingRef, id: string, r: FindingReconcile): FindingsNode {
  const restart = `${r.incarnation > 1 ? ` · after restart ${r.incarnation - 1}` : ''}${r.killed ? ' · killed here, before it finished' : ''}`;
  const read = `read rv ${r.read.resourceVersion ?? '(not in cache)'}, cache rv ${r.cacheResourceVersion}`;
  const writes = r.writes.map((w, i) => node(ref, 'write', `${id}:w${i}`, { label: w, icon: icon('edit') }));
  return node(ref, 'reconcile', id, {
    label: `#${r.seq} ${r.key}`,
    description: `${r.trigger}; ${read}${restart}`,
    icon: icon('debug-stackframe'),
    tooltip: `**#${r.seq}** ${r.controller} ${r.key}${restart}\n\ntrigger: ${r.trigger}\n\n${read}${r.writes.length ? `\n\nwrites:\n${r.writes.map((w) => `- ${w}`).join('\n')}` : ''}`,
  }, writes);
}
