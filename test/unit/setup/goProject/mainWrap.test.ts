import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CONTROLLERLAB_PACKAGE, wrapManager } from '../../../../src/setup/goProject/mainWrap.ts';
import { scaffoldFile } from './fixtures.ts';

const WRAP = [
  '\t// Controller Lab: started by Controller Lab (`controller-lab run`, its debugger), every reconcile',
  '\t// is reported and can be held and stepped; started any other way this returns mgr unchanged.',
  '\tmgr = controllerlab.Wrap(mgr)',
].join('\n');


function gofmt(text: string): string {
  const r = spawnSync('gofmt', [], { input: text, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('kubebuilder\'s cmd/main.go: the wrap goes after NewManager\'s error check, the import beside controller-runtime\'s', () => {
  const main = scaffoldFile('cmd/main.go');
  const r = wrapManager(main);
  assert.equal(r.kind, 'wrapped');
  if (r.kind !== 'wrapped') return;
  assert.deepEqual([r.managerVar, r.call, r.line], ['mgr', 'ctrl.NewManager', 162]);
  assert.ok(r.text.includes(`\t\tsetupLog.Error(err, "Failed to start manager")\n\t\tos.Exit(1)\n\t}\n\n${WRAP}\n\n\tif err := (&controller.MemcachedReconciler{`), r.text);
  assert.ok(r.text.includes(`\tctrl "sigs.k8s.io/controller-runtime"\n\t"${CONTROLLERLAB_PACKAGE}"\n`));
  // Nothing else changed.
  assert.equal(r.text.replace(`\n${WRAP}\n`, '').replace(`\t"${CONTROLLERLAB_PACKAGE}"\n`, ''), main);
  // A second time: nothing to do.
  assert.deepEqual(wrapManager(r.text), { kind: 'alreadyWrapped' });
});

test('after gofmt the import is sorted into the third-party group and nothing else moves', () => {
  const r = wrapManager(scaffoldFile('cmd/main.go'));
  assert.equal(r.kind, 'wrapped');
  if (r.kind !== 'wrapped') return;
  const formatted = gofmt(r.text);
  assert.ok(formatted.includes(`\t_ "k8s.io/client-go/plugin/pkg/client/auth"\n\n\t"${CONTROLLERLAB_PACKAGE}"\n\t"k8s.io/apimachinery/pkg/runtime"\n`), formatted.slice(0, 1400));
  assert.equal(gofmt(formatted), formatted);
  assert.ok(formatted.includes(`\n${WRAP}\n`));
});

test('the manager\'s own name, manager.New, and no error check after the call', () => {
  const text = `package main

import (
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

func main() {
	m, startErr := manager.New(cfg, manager.Options{
		Scheme: scheme, // a comment with a ) in it
	})
	setup(m)
}
`;
  const r = wrapManager(text);
  assert.equal(r.kind, 'wrapped');
  if (r.kind !== 'wrapped') return;
  assert.equal(r.managerVar, 'm');
  assert.ok(r.text.includes('\t})\n\n\t// Controller Lab:'), r.text);
  assert.ok(r.text.includes('returns m unchanged.\n\tm = controllerlab.Wrap(m)\n\tsetup(m)'), r.text);
  assert.ok(r.text.includes(`\t"sigs.k8s.io/controller-runtime/pkg/manager"\n\t"${CONTROLLERLAB_PACKAGE}"\n`), r.text);
});

test('a NewManager in a comment or string is not a call; an unassigned call is left to the user, with why', () => {
  assert.deepEqual(wrapManager('package main\n\n// ctrl.NewManager(cfg)\nvar s = "ctrl.NewManager("\n'), { kind: 'noManager' });
  const r = wrapManager('package main\n\nfunc main() {\n\tmgr := must(ctrl.NewManager(cfg, ctrl.Options{}))\n\t_ = mgr\n}\n');
  assert.equal(r.kind, 'unrecognized');
  if (r.kind !== 'unrecognized') return;
  assert.equal(r.line, 4);
  assert.match(r.reason, /ctrl\.NewManager's result is not assigned as `mgr, err := ctrl\.NewManager\(…\)`/);
});

test('a single import declaration gets one of its own beside it', () => {
  const r = wrapManager('package main\n\nimport ctrl "sigs.k8s.io/controller-runtime"\n\nfunc main() {\n\tmgr, err := ctrl.NewManager(nil, ctrl.Options{})\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\t_ = mgr.Start\n}\n');
  assert.equal(r.kind, 'wrapped');
  if (r.kind !== 'wrapped') return;
  assert.ok(r.text.startsWith(`package main\n\nimport ctrl "sigs.k8s.io/controller-runtime"\nimport "${CONTROLLERLAB_PACKAGE}"\n`), r.text);
  assert.ok(r.text.includes('\t}\n\n\t// Controller Lab:'), r.text);
});
