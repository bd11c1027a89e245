import { basename, resolve } from 'node:path';
import type { GoProjectSetup } from '../../setup/index.ts';

// The one line "Set Up This Go Project" ends with: the project by its folder's name (a folder
// opened as `code-server ~/proj/` has a trailing slash, which must not leave the name empty), how
// much changed, what is left to do by hand, and what to run next — in a VS Code terminal when only
// the extension's own controller-lab command is there for the tests to find.

export function goSetupNotice(dir: string, setup: Pick<GoProjectSetup, 'changes' | 'next'>, inVsCodeTerminal = false): string {
  const changed = setup.changes.filter((c) => c.status === 'changed').length;
  const byHand = setup.changes.filter((c) => c.status === 'manual').length;
  const summary = changed ? `${changed} change${changed === 1 ? '' : 's'}` : 'nothing to change';
  return `Controller Lab: set up ${basename(resolve(dir))} (${summary}${byHand ? `, ${byHand} to do by hand` : ''}). Next${inVsCodeTerminal ? ', in a VS Code terminal' : ''}: ${setup.next.join(', then ')}.`;
}
