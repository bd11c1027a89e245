import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ControllerLabApi } from '../../src/extension.ts';
import { waitFor } from './waitFor.ts';

// "Why (Not)?" in a real extension host: a debugged controller lets events go by (a predicate, a
// map function that maps to nothing); each such miss is struck on the timeline saying why, and
// the command on a timeline event answers, one step per line, for that change.

describe('Controller Lab: why (not)?', function () {
  this.timeout(120_000);
  let api: ControllerLabApi;
  let fixtures = '';

  before(async () => {
    const ext = vscode.extensions.getExtension<ControllerLabApi>('controller-lab.controller-lab');
    assert.ok(ext, 'extension is installed');
    api = await ext.activate();
    fixtures = path.join(ext.extensionPath, 'test/fixtures/whyNot');
  });

  afterEach(async () => {
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging(vscode.debug.activeDebugSession);
  });

  it('strikes the events a controller missed on the timeline, and answers why on one', async () => {
    const started = await vscode.debug.startDebugging(undefined, {
      type: 'controller-lab',
      request: 'launch',
      name: 'why-not controller',
      controller: path.join(fixtures, 'controller.ts'),
      scenario: path.join(fixtures, 'scenario.yaml'),
      cluster: 'sim',
    });
    assert.equal(started, true);
    // The scenario's first step labels web: GenerationChangedPredicate filters that out.
    const miss = await waitFor('a miss of Deployment default/web on the timeline', () =>
      api.services.lab.timeline.events.all().find((e) => e.type === 'MISSED' && e.kind === 'Deployment' && e.name === 'web'),
    );
    assert.equal(miss.note, 'app-config enqueued nothing: filtered by GenerationChangedPredicate (For)');
    assert.ok(miss.informer.startsWith('controller:'), miss.informer);
    // Ringed on the lane of its event: the same object and resourceVersion in the controller's cache.
    assert.ok(api.services.lab.timeline.events.all().some((e) => e.type === 'MODIFIED' && e.resource === miss.resource && e.name === 'web' && e.resourceVersion === miss.resourceVersion && e.cluster === miss.cluster));

    // The timeline's context menu passes its webview and the event under the pointer.
    const text = (await vscode.commands.executeCommand('controllerLab.whyNot', { webview: 'controllerLab.timeline', webviewSection: 'event', seq: miss.seq })) as string;
    assert.equal(text.split('\n').slice(0, 6).join('\n'), [
      'Why (not)? Deployment default/web',
      `MODIFIED rv ${miss.resourceVersion}:`,
      '  app-config: not reconciled',
      '    Watched? yes, Deployment through For',
      text.split('\n')[4],
      '    Filtered? yes (For), by predicate GenerationChangedPredicate: it returned false, so nothing was enqueued',
    ].join('\n'));
    assert.match(text.split('\n')[4] ?? '', new RegExp(`^ {4}Received\\? yes, MODIFIED rv ${miss.resourceVersion} at `));

    // The ConfigMap no source maps to anything.
    const unrelated = await waitFor('a miss of ConfigMap default/unrelated', () =>
      api.services.lab.timeline.events.all().find((e) => e.type === 'MISSED' && e.name === 'unrelated'),
    );
    assert.equal(unrelated.note, 'app-config enqueued nothing: mapped to no request (Owns); mapped to no request (Watches)');
  });

  it('strikes the events a Go controller missed, over the events of its cache, naming the predicate as the builder registered it', async function () {
    // go build of the fixture, inside the repository's Go module (a `_` directory go test skips).
    this.timeout(240_000);
    const root = path.resolve(fixtures, '../../..');
    const dir = mkdtempSync(path.join(root, 'go', '_cltest-why-'));
    try {
      writeFileSync(path.join(dir, 'main.go'), readFileSync(path.join(fixtures, 'main.go'), 'utf8'));
      // Only this session's events: the TypeScript one above ran the same scenario, with the same RVs.
      api.services.lab.timeline.clear();
      const started = await vscode.debug.startDebugging(undefined, {
        type: 'controller-lab',
        request: 'launch',
        name: 'why-not Go controller',
        program: dir,
        scenario: path.join(fixtures, 'scenario.yaml'),
        cluster: 'sim',
      });
      assert.equal(started, true);
      const events = () => api.services.lab.timeline.events.all();
      const miss = await waitFor(
        'a miss of the Go controller on Deployment default/web',
        () => events().find((e) => e.type === 'MISSED' && e.kind === 'Deployment' && e.name === 'web' && e.note?.includes('predicate.GenerationChangedPredicate')),
        200_000,
      );
      assert.equal(miss.note, 'app-config enqueued nothing: filtered by predicate.GenerationChangedPredicate (For)');
      // Over the event of the Go controller's cache it concerns.
      assert.ok(events().some((e) => e.type === 'MODIFIED' && e.name === 'web' && e.resourceVersion === miss.resourceVersion && e.cluster === miss.cluster && e.resource === miss.resource), `no event under ${JSON.stringify(miss)}`);
      const text = (await vscode.commands.executeCommand('controllerLab.whyNot', { webview: 'controllerLab.timeline', webviewSection: 'event', seq: miss.seq })) as string;
      assert.match(text, /^ {4}Filtered\? yes \(For\), by predicate predicate\.GenerationChangedPredicate: it returned false, so nothing was enqueued$/m, text);
    } finally {
      if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging(vscode.debug.activeDebugSession);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
