import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { holdFrameCount, ownFrameIndex, writerFrames } from '../../../../src/debug/go/writerFrames.ts';
import { returnTarget } from '../../../../src/debug/go/stepFromWrite.ts';

// A goroutine stopped in its client call, as Delve shows it: controllerlab's wait goes, the
// library call above the controller's line is de-emphasised.

const frame = (id: number, name: string, path: string, line: number): DebugProtocol.StackFrame => ({ id, name, source: { path }, line, column: 0 });
const MOD = '/root/go/pkg/mod/sigs.k8s.io/controller-runtime@v0.25.2/pkg/controller/controllerutil/controllerutil.go';
const stack = [
  frame(1, 'controllerlab.(*session).wait', '/src/go/controllerlab/session.go', 339),
  frame(2, 'controllerlab.(*labClient).finish', '/src/go/controllerlab/client.go', 181),
  frame(3, 'controllerlab.(*labClient).Create', '/src/go/controllerlab/client.go', 44),
  frame(4, 'controllerutil.CreateOrUpdate', MOD, 332),
  frame(5, 'main.(*mirrorReconciler).Reconcile', '/src/main.go', 39),
  frame(6, 'controllerlab.(*labReconciler).Reconcile', '/src/go/controllerlab/reconciler.go', 104),
];

describe('the writer goroutine\'s frames', () => {
  it('start at the client call; the controller\'s line is the first one not de-emphasised', () => {
    assert.equal(holdFrameCount(stack), 3);
    const shown = writerFrames(stack, { file: '/src/main.go', line: 39 });
    assert.deepEqual(shown.map((f) => f.id), [4, 5, 6]);
    assert.deepEqual(shown.map((f) => f.presentationHint), ['subtle', undefined, undefined]);
    assert.equal(shown[0]?.source?.presentationHint, 'deemphasize');
  });

  it('without the call site, the first frame outside the module cache is the controller\'s', () => {
    assert.deepEqual(writerFrames(stack).map((f) => f.presentationHint), ['subtle', undefined, undefined]);
  });
});

describe('a step from a held write', () => {
  const withPcs = stack.map((f) => ({ ...f, instructionPointerReference: `0x${(0x1000 + f.id).toString(16)}` }));
  const site = { file: '/src/main.go', line: 39 };

  it('runs to the return into the controller\'s frame, then steps as from its line; Step Out runs to its caller\'s', () => {
    assert.equal(ownFrameIndex(withPcs, site), 4);
    assert.deepEqual(returnTarget(withPcs, site, 'next'), { address: '0x1005', then: 'next' });
    assert.deepEqual(returnTarget(withPcs, site, 'stepIn'), { address: '0x1005', then: 'stepIn' });
    assert.deepEqual(returnTarget(withPcs, site, 'stepOut'), { address: '0x1006' });
  });

  it('is not known without instruction pointers or a frame of the controller\'s', () => {
    assert.equal(returnTarget(stack, site, 'next'), undefined);
    assert.equal(returnTarget(withPcs.slice(0, 4), undefined, 'next'), undefined);
    assert.equal(returnTarget(withPcs.slice(0, 5), site, 'stepOut'), undefined);
  });
});
