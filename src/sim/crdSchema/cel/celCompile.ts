import type { ASTNode, Environment, ParseResult } from '@marcbachmann/cel-js';
import { kubernetesEnvironment } from './kubernetesLibrary.ts';

// Compiling one CEL expression of an x-kubernetes-validations rule: parsed and type-checked
// once (cached by its text), with the facts the validator needs about it — whether it reads
// oldSelf (a transition rule) and the self.a.b field chains it reads, to check against the schema.

export interface Compiled {
  program: ParseResult;
  /** The checked result type (`bool`, `string`, `dyn`, ...). */
  type: string;
  usesOldSelf: boolean;
  /** Field selections rooted at self: `self.spec.replicas` → { steps: ['spec', 'replicas'], offsets: [4, 9] }. */
  selections: Selection[];
  /** The whole expression is a selection from self (its type is the schema's, not dyn). */
  wholeSelection?: Selection;
}

export interface Selection {
  /** `.name` or `[index]` steps from self; an index step is null. */
  steps: (string | null)[];
  /** Where each step's `.` or `[` is in the expression (cel-go's position for a select). */
  offsets: number[];
}

export type CompileResult = { ok: true; compiled: Compiled } | { ok: false; detail: string };

let environment: Environment | undefined;

function env(): Environment {
  environment ??= kubernetesEnvironment().clone().registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn');
  return environment;
}

const cache = new Map<string, CompileResult>();
const CACHE_LIMIT = 2000;

export function compileExpression(text: string): CompileResult {
  let result = cache.get(text);
  if (!result) {
    result = compileUncached(text);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(text, result);
  }
  return result;
}

function compileUncached(text: string): CompileResult {
  let program: ParseResult;
  try {
    program = env().parse(text);
  } catch (err) {
    return { ok: false, detail: celErrorText(text, err, 'Syntax error: ') };
  }
  const facts = { usesOldSelf: false, selections: [] as Selection[], wholeSelection: selectionFromSelf(program.ast) };
  walk(program.ast, facts);
  const checked = program.check();
  if (!checked.valid) return { ok: false, detail: celErrorText(text, checked.error) };
  return { ok: true, compiled: { program, type: checked.type ?? 'dyn', ...facts } };
}

interface Facts {
  usesOldSelf: boolean;
  selections: Selection[];
}

function isNode(value: unknown): value is ASTNode {
  return typeof value === 'object' && value !== null && 'op' in value && 'args' in value;
}

function walk(node: ASTNode, facts: Facts): void {
  if (node.op === 'id' && node.args === 'oldSelf') facts.usesOldSelf = true;
  if (node.op === '.' || node.op === '.?') {
    const selection = selectionFromSelf(node);
    if (selection) facts.selections.push(selection);
  }
  const visit = (v: unknown): void => {
    if (isNode(v)) walk(v, facts);
    else if (Array.isArray(v)) v.forEach(visit);
  };
  if (node.op !== 'value') visit(node.args);
}

/** `self.a[0].b` as steps ['a', null, 'b'], or undefined when the chain does not start at self. */
function selectionFromSelf(node: ASTNode): Selection | undefined {
  if (node.op !== '.' && node.op !== '.?' && node.op !== '[]' && node.op !== '[?]') return undefined;
  const steps: (string | null)[] = [];
  const offsets: number[] = [];
  let current: ASTNode = node;
  for (;;) {
    if (current.op === '.' || current.op === '.?') {
      steps.unshift(current.args[1]);
      // The node's position is its field name's; the dot (or `.?`) is just before it.
      offsets.unshift(Math.max(0, current.pos - current.op.length));
      current = current.args[0];
    } else if (current.op === '[]' || current.op === '[?]') {
      steps.unshift(null);
      offsets.unshift(current.args[0].end);
      current = current.args[0];
    } else break;
  }
  return current.op === 'id' && current.args === 'self' ? { steps, offsets } : undefined;
}

/**
 * A compile error as cel-go prints it: `ERROR: <input>:line:column: message` and the source
 * line with a caret under the column.
 */
export function celErrorText(text: string, err: unknown, prefix = ''): string {
  const e = err as { summary?: string; message?: string; range?: { start: number } };
  const summary = prefix + celGoWording(e.summary ?? e.message?.split('\n')[0] ?? String(err));
  return issueText(text, e.range?.start ?? 0, summary);
}

export function issueText(text: string, offset: number, summary: string): string {
  const before = text.slice(0, offset).split('\n');
  const line = before.length;
  const column = (before.at(-1) ?? '').length;
  const source = text.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column + 1}: ${summary}\n | ${source}\n | ${'.'.repeat(column)}^`;
}

/** cel-go's words for the common compile errors. */
function celGoWording(summary: string): string {
  const unknown = /^Unknown variable: (.*)$/.exec(summary);
  if (unknown) return `undeclared reference to '${unknown[1]}' (in container '')`;
  const overload = /^found no matching overload for '(.*)'$/.exec(summary);
  if (overload) return `found no matching overload for '${overload[1]}'`;
  return summary;
}
