import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ControllerLabApi } from '../../src/extension.ts';
import { findLinkedEvent, triggerTarget } from '../../src/shared/protocol/reconcileSpans.ts';
import type { TreeNode } from '../../src/vscode/tree/treeNodes.ts';
import { waitFor } from './waitFor.ts';

// Live inspection of a running controller inside a real extension host: debug the
// replicaset example on a simulated cluster and watch the Controller Lab tree show the controller,
// its informers and its workqueue — stopped in the debugger at the first reconcile, then running on.


describe('Controller Lab: running controllers in the tree', function () {
  this.timeout(90_000);
  let api: ControllerLabApi;
  let examples = '';
  const tree = () => api.services.tree;
  const labelOf = (node: TreeNode) => String(tree().getTreeItem(node).label ?? '');
  const descriptionOf = (node: TreeNode) => String(tree().getTreeItem(node).description ?? '');
  const findChild = (parent: TreeNode | undefined, label: string | RegExp) =>
    tree().getChildren(parent).find((n) => (typeof label === 'string' ? labelOf(n) === label : label.test(labelOf(n))));

  before(async () => {
    const ext = vscode.extensions.getExtension<ControllerLabApi>('controller-lab.controller-lab');
    assert.ok(ext, 'extension is installed');
    api = await ext.activate();
    examples = path.join(ext.extensionPath, 'examples');
  });

  after(async () => {
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging(vscode.debug.activeDebugSession);
  });

  it('shows the debugged controller with its informers and workqueue, live', async () => {
    const started = await vscode.debug.startDebugging(undefined, {
      type: 'controller-lab',
      request: 'launch',
      name: 'ReplicaSet controller (controllers view)',
      controller: path.join(examples, 'replicaset-controller/controller.ts'),
      scenario: path.join(examples, 'replicaset-controller/scenario.yaml'),
      cluster: 'sim',
      stopOnEntry: true,
    });
    assert.equal(started, true);

    const root = await waitFor('the Controllers root', () => findChild(undefined, 'Controllers'));
    const controller = await waitFor('the controller row, stopped in the debugger', () => {
      const node = findChild(root, /replicaset/i);
      return node && /^stopped in debugger/.test(descriptionOf(node)) ? node : undefined;
    });
    assert.deepEqual(tree().getChildren(controller).map(labelOf), ['Informers', 'Workqueue']);
    assert.equal(tree().getParent(controller), root);

    const informers = findChild(controller, 'Informers');
    const rows = await waitFor('the controller\'s synced informers', () => {
      const children = tree().getChildren(informers);
      return children.length > 0 && children.every((n) => /^synced/.test(descriptionOf(n))) ? children : undefined;
    });
    assert.ok(rows.some((n) => /replicasets/.test(labelOf(n))), `informers: ${rows.map(labelOf).join(', ')}`);

    // Stopped at the first reconcile: its key is being processed.
    const queue = findChild(controller, 'Workqueue');
    assert.ok(queue);
    assert.match(descriptionOf(queue), /^depth \d+ · processing 1 · waiting \d+$/);
    const processing = tree().getChildren(queue).find((n) => /^processing/.test(descriptionOf(n)));
    assert.ok(processing, `queue: ${tree().getChildren(queue).map((n) => `${labelOf(n)} ${descriptionOf(n)}`).join('; ')}`);
    assert.match(labelOf(processing), /^default\/(web|api)$/);

    // Continue: the reconciles run, the row counts them and leaves "stopped in debugger".
    const session = vscode.debug.activeDebugSession;
    assert.ok(session);
    await session.customRequest('continue', { threadId: 1 });
    await waitFor('reconciles counted', () => {
      const d = descriptionOf(controller);
      return /[1-9]\d* reconciles?/.test(d) && !/stopped in debugger/.test(d) ? d : undefined;
    });
    await vscode.debug.stopDebugging(session);
    await waitFor('the controller row to show it exited', () => (/^exited|^failed/.test(descriptionOf(controller)) ? true : undefined));
  });

  it('shows a controller started with “Run Controller on Simulated Cluster”, running, until its terminal closes', async () => {
    const file = vscode.Uri.file(path.join(examples, 'replicaset-controller/controller.ts'));
    const before = new Set(vscode.window.terminals);
    await vscode.commands.executeCommand('controllerLab.runController', file);
    const terminal = await waitFor('the run terminal', () => vscode.window.terminals.find((t) => !before.has(t) && t.name === 'Controller Lab: run'));
    const root = await waitFor('the Controllers root', () => findChild(undefined, 'Controllers'));
    const controller = await waitFor('a running controller row with reconciles', () =>
      tree()
        .getChildren(root)
        .find((n) => /replicaset/i.test(labelOf(n)) && /^(running|idle|reconciling) · [1-9]\d* reconciles?/.test(descriptionOf(n))),
    );
    const queue = findChild(controller, 'Workqueue');
    assert.ok(queue);
    assert.match(descriptionOf(queue), /^depth \d+ · processing \d+ · waiting \d+$/);
    const informers = findChild(controller, 'Informers');
    await waitFor('its informers synced', () => {
      const rows = tree().getChildren(informers);
      return rows.length > 0 && rows.every((n) => /^synced · rv \d+/.test(descriptionOf(n))) ? rows : undefined;
    });
    // Its informers' events are on the timeline (what its reconcile spans link to).
    await waitFor('the controller\'s informer events in the timeline ring', () =>
      api.services.lab.timeline.events.all().find((e) => e.informer.startsWith('controller:') && /^replicasets/.test(e.resource) && e.type === 'ADDED'),
    );
    // And its reconciles are spans whose writes link to the events they caused (by object and RV).
    const linked = await waitFor('a reconcile span whose write is on the timeline', () => {
      const events = api.services.lab.timeline.events.all();
      for (const span of api.services.lab.timeline.spans()) {
        for (const w of span.writes) {
          const event = findLinkedEvent(w, events);
          if (event) return { span, w, event };
        }
      }
      return undefined;
    });
    assert.equal(linked.span.controller, labelOf(controller));
    assert.equal(linked.event.resourceVersion, linked.w.resourceVersion);
    const triggered = api.services.lab.timeline.spans().find((s) => s.triggers.some((t) => findLinkedEvent(triggerTarget(t), api.services.lab.timeline.events.all())));
    assert.ok(triggered, 'some reconcile links to the event that triggered it');
    terminal.dispose();
    await waitFor('the run to stop when its terminal closes', () => (/^exited|^failed/.test(descriptionOf(controller)) ? true : undefined));
  });
});
