import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../../../src/shared/clock.ts';
import { listKubeconfigContexts } from '../../../src/views/backends/kubeconfigContexts.ts';
import { objectDocumentText } from '../../../src/views/documents/objectDocument.ts';
import { objectUriParts, parseObjectUri } from '../../../src/views/documents/objectUri.ts';
import { Lab } from '../../../src/views/model/lab.ts';
import { eventDetails } from '../../../src/views/timeline/eventDetails.ts';
import { contentSecurityPolicy, timelineHtml } from '../../../src/views/timeline/webviewHtml.ts';
import {
  EventDetailsRequest,
  ReadyCommand,
  command,
  hasSeq,
  isCommand,
  isRequest,
  isResponse,
  request,
  response,
} from '../../../src/shared/protocol/timeline.ts';
import { CONFIGMAPS, FakeApi, fakeBackend, settle } from './fakeBackend.ts';

async function labWith(api: FakeApi) {
  const lab = new Lab({ clock: new FakeClock(), createBackend: async () => fakeBackend(api), maxTimelineEvents: 100 });
  const cluster = await lab.connect({ kind: 'kubeconfig', context: 'test' }, 'test');
  const informer = lab.startInformer(cluster.id, { resource: CONFIGMAPS, namespace: '', labelSelector: '' });
  await informer.informer.waitForSync();
  return { lab, informer };
}

describe('timeline webview shell', () => {
  it('allows only our nonce’d script and our stylesheet, nothing remote', () => {
    const csp = contentSecurityPolicy('vscode-webview://abc', 'N0NCE');
    assert.equal(csp, "default-src 'none'; script-src 'nonce-N0NCE'; style-src vscode-webview://abc 'nonce-N0NCE'; img-src vscode-webview://abc data:; font-src vscode-webview://abc");
    const html = timelineHtml({ cspSource: 'vscode-webview://abc', scriptUri: 'https://file+.vscode-resource/x/timeline.js', styleUri: 'https://file+.vscode-resource/x/timeline.css', nonce: 'N0NCE' });
    assert.match(html, /<script nonce="N0NCE" src="https:\/\/file\+\.vscode-resource\/x\/timeline\.js"><\/script>/);
    assert.equal((html.match(/<script/g) ?? []).length, 1, 'one script, no inline code');
    assert.doesNotMatch(html, /http:\/\//);
  });
});

describe('timeline protocol', () => {
  it('recognises its messages and rejects look-alikes', () => {
    assert.ok(isCommand(command(ReadyCommand, {}), ReadyCommand));
    assert.ok(!isCommand({ kind: 'command', method: 'timeline/other' }, ReadyCommand));
    const req = request(EventDetailsRequest, 7, { seq: 3 });
    assert.ok(isRequest(req, EventDetailsRequest));
    assert.ok(!isRequest({ ...req, id: '7' }, EventDetailsRequest));
    assert.ok(isResponse(response(EventDetailsRequest, 7, { event: {} as never }), EventDetailsRequest));
    assert.ok(hasSeq({ seq: 1 }));
    assert.ok(!hasSeq({ seq: Number.NaN }));
    assert.ok(!hasSeq(null));
  });
});

describe('object documents', () => {
  it('round-trips addresses through the URI parts', () => {
    const address = { informerId: 'ctx:/k:prod/deployments.apps@web[app=x]', resource: 'deployments.apps', key: 'web/frontend', resourceVersion: '42' };
    const parts = objectUriParts(address);
    assert.equal(parts.path, '/deployments.apps/web/frontend.yaml');
    assert.deepEqual(parseObjectUri(parts), address);
    const clusterScoped = objectUriParts({ informerId: 'sim/nodes', resource: 'nodes', key: 'node-1' });
    assert.equal(clusterScoped.path, '/nodes/_cluster/node-1.yaml');
    assert.deepEqual(parseObjectUri(clusterScoped), { informerId: 'sim/nodes', resource: 'nodes', key: 'node-1' });
  });

  it('shows the live object, a fixed version, and a deleted object’s last state', async () => {
    const api = new FakeApi();
    api.put('default', 'a', { v: '1' });
    const { lab, informer } = await labWith(api);
    api.put('default', 'a', { v: '2' });
    await settle();
    const live = objectDocumentText(lab, { informerId: informer.id, resource: 'configmaps', key: 'default/a' }, false);
    assert.match(live, /^# default\/a — live from informer configmaps/);
    assert.match(live, /v: "2"/);
    const old = objectDocumentText(lab, { informerId: informer.id, resource: 'configmaps', key: 'default/a', resourceVersion: '11' }, false);
    assert.match(old, /v: "1"/);
    api.remove('default', 'a');
    await settle();
    assert.match(objectDocumentText(lab, { informerId: informer.id, resource: 'configmaps', key: 'default/a' }, false), /was DELETED/);
    assert.match(objectDocumentText(lab, { informerId: 'nope', resource: 'configmaps', key: 'default/a' }, false), /not running/);
    await lab.dispose();
  });
});

describe('timeline event details', () => {
  it('diffs an event’s version against the one before it', async () => {
    const api = new FakeApi();
    api.put('default', 'a', { v: '1' });
    const { lab } = await labWith(api);
    api.put('default', 'a', { v: '2' });
    await settle();
    const modified = lab.timeline.events.all().find((e) => e.type === 'MODIFIED');
    assert.ok(modified);
    const details = eventDetails(lab, modified.seq, false);
    assert.equal(details.previousResourceVersion, '11');
    assert.deepEqual(details.diff?.filter((l) => l.op !== ' ').map((l) => l.op + l.text.trim()), ['-resourceVersion: "11"', '+resourceVersion: "12"', '-v: "1"', '+v: "2"']);
    const relist = lab.timeline.events.all().find((e) => e.type === 'RELIST');
    assert.ok(relist);
    assert.match(eventDetails(lab, relist.seq, false).note ?? '', /A list/);
    assert.throws(() => eventDetails(lab, 999, false), /no longer kept/);
    await lab.dispose();
  });
});

describe('kubeconfig contexts', () => {
  it('lists contexts from the given file and marks the current one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-'));
    const file = join(dir, 'config');
    writeFileSync(file, 'apiVersion: v1\nkind: Config\ncurrent-context: b\ncontexts:\n- name: a\n  context: { cluster: ca }\n- name: b\n  context: { cluster: cb, namespace: prod }\n');
    const { contexts, problems } = listKubeconfigContexts(file);
    assert.deepEqual(problems, []);
    assert.deepEqual(contexts.map((c) => [c.name, c.cluster, c.current, c.namespace]), [['a', 'ca', false, undefined], ['b', 'cb', true, 'prod']]);
  });

  it('finds nothing, quietly, when there is no kubeconfig', () => {
    const { contexts, problems } = listKubeconfigContexts(undefined, { HOME: '/nonexistent-home' });
    assert.deepEqual(contexts, []);
    assert.deepEqual(problems, []);
  });

  it('reports an unreadable file as a problem, not an exception', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-'));
    const file = join(dir, 'config');
    writeFileSync(file, 'contexts: [unclosed');
    const { contexts, problems } = listKubeconfigContexts(file);
    assert.deepEqual(contexts, []);
    assert.equal(problems.length, 1);
  });
});
