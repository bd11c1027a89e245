import { addImport } from './goImports.ts';
import { GoSource } from './goScanner.ts';
import type { Project } from './project.ts';

// The one line a controller-runtime program needs: `mgr = controllerlab.Wrap(mgr)`, right after the
// manager is created and its error checked (before controllers are built on it), and its import.

export const CONTROLLERLAB_PACKAGE = 'github.com/controller-lab/controller-lab/go/controllerlab';

/** A manager being created: `ctrl.NewManager(`, `controllerruntime.NewManager(`, `manager.New(`. */
const NEW_MANAGER = /(?:\b[A-Za-z_]\w*\.)?\bNewManager\s*\(|\bmanager\.New\s*\(/;

export type WrapResult =
  | { kind: 'wrapped'; text: string; managerVar: string; call: string; line: number }
  | { kind: 'alreadyWrapped' }
  | { kind: 'noManager' }
  /** A manager is created in a way this edit does not recognize: `reason` says what to add by hand. */
  | { kind: 'unrecognized'; call: string; line: number; reason: string };

export function callsNewManager(text: string): boolean {
  return new GoSource(text).find(NEW_MANAGER) !== undefined;
}

function wrapLines(indent: string, mgr: string): string {
  return [
    `${indent}// Controller Lab: started by Controller Lab (\`controller-lab run\`, its debugger), every reconcile`,
    `${indent}// is reported and can be held and stepped; started any other way this returns ${mgr} unchanged.`,
    `${indent}${mgr} = controllerlab.Wrap(${mgr})`,
  ].join('\n');
}

export function wrapManager(text: string): WrapResult {
  const src = new GoSource(text);
  if (src.find(/\bcontrollerlab\.Wrap\s*\(/)) return { kind: 'alreadyWrapped' };
  const call = src.find(NEW_MANAGER);
  if (!call) return { kind: 'noManager' };
  const callName = call[0].replace(/\s*\($/, '');
  const line = src.lineOf(call.index);
  const statementStart = src.lineStart(call.index);
  // `mgr, err := ctrl.NewManager(` or `mgr, err = …`, the call first on the right-hand side.
  const assignment = /^([ \t]*)([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*:?=\s*$/.exec(text.slice(statementStart, call.index));
  if (!assignment) {
    return { kind: 'unrecognized', call: callName, line, reason: `${callName}'s result is not assigned as \`mgr, err := ${callName}(…)\`` };
  }
  const [, indent = '', mgr = 'mgr', errVar = 'err'] = assignment;
  const open = call.index + call[0].length - 1;
  const close = src.closing(open);
  if (close < 0) return { kind: 'unrecognized', call: callName, line, reason: `the parentheses of ${callName}(…) do not close` };
  // After the call's line, the usual `if err != nil { … }`: the wrap goes after it, on a working manager.
  let insertAt = src.lineEnd(close);
  const check = src.find(new RegExp(`\\S`), insertAt);
  const errCheck = new RegExp(`^if\\s+${errVar}\\s*!=\\s*nil\\s*\\{`);
  if (check && errCheck.test(text.slice(check.index))) {
    const brace = text.indexOf('{', check.index);
    const end = src.closing(brace);
    if (end < 0) return { kind: 'unrecognized', call: callName, line, reason: 'the braces of the error check after it do not close' };
    insertAt = src.lineEnd(end);
  }
  const wrapped = `${text.slice(0, insertAt)}\n${wrapLines(indent, mgr)}\n${text.slice(insertAt)}`;
  const near = /"sigs\.k8s\.io\/controller-runtime(\/pkg\/manager)?"/;
  return { kind: 'wrapped', text: addImport(wrapped, CONTROLLERLAB_PACKAGE, near), managerVar: mgr, call: callName, line };
}

/**
 * Wraps the manager of the main package that creates one (cmd/main.go when it does, else every main
 * that does). Answers the (first) main file and its folder as `controller-lab run` takes it (`./cmd`).
 */
export function wrapMains(project: Project): { program: string; mainFile: string } | undefined {
  const mains = project.goFiles()
    .filter((f) => !f.endsWith('_test.go'))
    .map((file) => ({ file, text: project.read(file) ?? '' }))
    .filter(({ text }) => new GoSource(text).find(/^package\s+main\b/m) && callsNewManager(text));
  const preferred = mains.filter((m) => m.file === 'cmd/main.go');
  const chosen = preferred.length ? preferred : mains;
  const byHand = `add \`mgr = controllerlab.Wrap(mgr)\` after the manager is created (and its error checked), and import "${CONTROLLERLAB_PACKAGE}"`;
  if (chosen.length === 0) {
    project.manual('main.go', `no main package calls NewManager: ${byHand}`);
    return undefined;
  }
  for (const { file, text } of chosen) {
    const result = wrapManager(text);
    if (result.kind === 'wrapped') project.write(file, result.text, `${result.managerVar} = controllerlab.Wrap(${result.managerVar}) after ${result.call}`);
    else if (result.kind === 'alreadyWrapped') project.unchanged(file, 'already calls controllerlab.Wrap');
    else if (result.kind === 'unrecognized') project.manual(`${file}:${result.line}`, `${result.reason}: ${byHand}`);
  }
  const mainFile = chosen[0]!.file;
  const dir = mainFile.includes('/') ? mainFile.slice(0, mainFile.lastIndexOf('/')) : '';
  return { program: dir ? `./${dir}` : '.', mainFile };
}
