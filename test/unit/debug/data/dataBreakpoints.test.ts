import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { DataBreakpointSet, dataBreakpointText, isDataBreakpointText } from '../../../../src/debug/data/dataBreakpoints.ts';

// Data breakpoints: which function breakpoint names are data breakpoints, and which cache deltas
// change a watched field (glob names, field paths, conditions on the new value, hit counts).

const cm = (name: string, data: Record<string, string>, rv = '5'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name, resourceVersion: rv }, data });
const delta = (key: string, rv = '6') => ({ seq: 1, type: 'MODIFIED' as const, kind: 'ConfigMap', key, resourceVersion: rv });

describe('data breakpoints', () => {
  it('tells a data breakpoint (a field path after the name) from a reconcile breakpoint', () => {
    assert.equal(isDataBreakpointText('Deployment default/web .spec.replicas'), true);
    assert.equal(isDataBreakpointText('ConfigMap */app-* .data.mode == "off"'), true);
    assert.equal(isDataBreakpointText('ConfigMap .data.mode'), true);
    assert.equal(isDataBreakpointText('Deployment default/web'), false);
    assert.equal(isDataBreakpointText('Deployment'), false);
  });

  it('stops on a change of the field, not on other changes of the object', () => {
    const set = new DataBreakpointSet();
    const [bp] = set.set('function', [{ text: 'ConfigMap default/app .data.mode' }]);
    assert.equal(bp?.verified, true);
    assert.deepEqual(set.changes(delta('default/app'), cm('app', { mode: 'on', x: '1' }), cm('app', { mode: 'on', x: '2' })), []);
    const [change] = set.changes(delta('default/app'), cm('app', { mode: 'on' }), cm('app', { mode: 'off' }));
    assert.deepEqual({ before: change?.before, after: change?.after, field: change?.field, id: change?.breakpointId }, { before: 'on', after: 'off', field: '.data.mode', id: bp?.id });
    assert.deepEqual(set.changes(delta('default/other'), cm('other', { mode: 'on' }), cm('other', { mode: 'off' })), [], 'another object');
  });

  it('matches names by glob and takes a condition on the new value after the path', () => {
    const set = new DataBreakpointSet();
    set.set('function', [{ text: 'ConfigMap */app-* .data.mode == "off"' }]);
    assert.equal(set.changes(delta('prod/app-1'), cm('app-1', { mode: 'on' }), cm('app-1', { mode: 'off' })).length, 1);
    assert.equal(set.changes(delta('prod/app-1'), cm('app-1', { mode: 'off' }), cm('app-1', { mode: 'slow' })).length, 0, 'the condition does not hold');
    assert.equal(set.changes(delta('prod/db'), cm('db', { mode: 'on' }), cm('db', { mode: 'off' })).length, 0, 'the glob does not match');
  });

  it('takes the editor\'s condition (value, old, obj, oldObj) and hit condition too', () => {
    const set = new DataBreakpointSet();
    set.set('data', [{ text: 'ConfigMap default/app .data.n', condition: 'Number(value) > Number(old)', hitCondition: '2' }]);
    const step = (from: string, to: string) => set.changes(delta('default/app'), cm('app', { n: from }), cm('app', { n: to })).length;
    assert.equal(step('1', '2'), 0, 'first hit: the hit condition waits for the second');
    assert.equal(step('2', '1'), 0, 'the condition does not hold');
    assert.equal(step('1', '3'), 1);
  });

  it('reports a breakpoint it cannot read as unverified, with why', () => {
    const set = new DataBreakpointSet();
    const [bad] = set.set('function', [{ text: 'ConfigMap default/app .data.mode ==' }]);
    assert.equal(bad?.verified, false);
    assert.ok(bad?.message);
  });

  it('names a field of an object the way a function breakpoint would (the data id)', () => {
    assert.equal(dataBreakpointText(cm('app', {}), ['data', 'app.mode']), 'ConfigMap default/app .data["app.mode"]');
    assert.equal(dataBreakpointText(cm('app', {}), ['spec', 'containers', 0, 'image']), 'ConfigMap default/app .spec.containers[0].image');
  });

  it('tells which breakpoints name a kind the controller does not watch', () => {
    const set = new DataBreakpointSet();
    set.set('function', [{ text: 'Deployment default/web .spec.replicas' }, { text: 'config* default/app .data.mode' }]);
    assert.deepEqual(set.unwatched(['ReplicaSet', 'ConfigMap']).map((b) => b.spec.text), ['Deployment default/web .spec.replicas']);
  });
});
