import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STEP_CONTEXT_KEYS, WALKTHROUGH_ID } from '../../../src/vscode/walkthroughSteps.ts';

// The walkthrough's steps tick when the user does the thing: every step completes on something the
// extension really signals (a context key it sets, a command it contributes, its view), never on a
// context any debug session would set.

const root = join(import.meta.dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: { commands: { command: string }[]; views: Record<string, { id: string }[]>; walkthroughs: { id: string; steps: { id: string; completionEvents?: string[]; media: { markdown?: string } }[] }[] };
};

describe('the getting-started walkthrough', () => {
  const walkthrough = pkg.contributes.walkthroughs.find((w) => w.id === WALKTHROUGH_ID);

  it('exists and the extension activates at startup, so it can open on the first run', () => {
    assert.ok(walkthrough);
    assert.ok(pkg.activationEvents.includes('onStartupFinished'));
  });

  it('completes every step on a signal the extension gives', () => {
    const commands = new Set(pkg.contributes.commands.map((c) => c.command));
    const views = new Set(Object.values(pkg.contributes.views).flat().map((v) => v.id));
    const keys = new Set<string>(Object.values(STEP_CONTEXT_KEYS));
    const used = new Set<string>();
    for (const step of walkthrough!.steps) {
      assert.ok(step.completionEvents?.length, `${step.id} has completion events`);
      for (const event of step.completionEvents!) {
        const [kind, arg = ''] = event.split(/:(.*)/s);
        if (kind === 'onContext') {
          assert.ok(keys.has(arg), `${step.id}: ${arg} is a key the extension sets`);
          used.add(arg);
        } else if (kind === 'onCommand') assert.ok(commands.has(arg), `${step.id}: ${arg} is contributed`);
        else if (kind === 'onView') assert.ok(views.has(arg), `${step.id}: view ${arg}`);
        else assert.fail(`${step.id}: unexpected completion event ${event}`);
      }
      if (step.media.markdown) assert.ok(existsSync(join(root, step.media.markdown)), step.media.markdown);
    }
    assert.deepEqual([...keys].filter((k) => !used.has(k)), [], 'every key the extension sets ticks a step');
  });

  // A Go author who opens the walkthrough in a kubebuilder project: its Debug button runs their
  // program, so the step says how a Go project gets there.
  it('tells a Go author how to debug a Go controller', () => {
    const step = walkthrough!.steps.find((s) => s.id === 'debugController');
    assert.ok(step?.media.markdown);
    const text = `${(step as { description?: string }).description ?? ''}\n${readFileSync(join(root, step.media.markdown), 'utf8')}`;
    assert.match(text, /controllerlab\.Wrap/);
    assert.match(text, /Set Up This Go Project/);
    assert.match((step as { description?: string }).description ?? '', /\(command:controllerLab\.setUpGoProject\)/, 'a button for it');
  });
});
