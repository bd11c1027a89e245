import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, timelineHtml } from '../../../src/vscode/timeline/webviewHtml.ts';
import { EventDetailsRequest, ReadyCommand, command, hasSeq, isCommand, isRequest, isResponse, request, response } from '../../../src/shared/protocol/timeline.ts';

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
