import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// A field selector's values are unescaped as kube-apiserver's fields.ParseSelector does: only `\\`,
// `\,` and `\=` are escapes, and a bare `=` in a value is refused. Answers checked against
// kube-apiserver v1.28.4.

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';
const list = (selector: string) => call(suite.server, 'GET', `${CMS}?fieldSelector=${encodeURIComponent(selector)}`);

describe('field selector escapes', () => {
  it('an unknown escape, or a backslash at the end, is a 400 naming it', async () => {
    for (const [selector, message] of [
      ['metadata.name=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
      ['metadata.name=a\\', 'invalid field selector: invalid escape sequence: \\'],
      ['metadata.name!=a\\!', 'invalid field selector: invalid escape sequence: \\!'],
      // Parsed before the field is looked at, and the terms in sorted order.
      ['spec.foo=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
      ['metadata.namespace=b\\y,metadata.name=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ]) {
      const r = await list(selector!);
      assert.equal(r.status, 400, selector);
      assert.equal(r.json().reason, 'BadRequest');
      assert.equal(r.json().message, message, selector);
    }
  });

  it('a bare = in a value is a 400 naming its code point', async () => {
    for (const selector of ['metadata.name=a=b', 'metadata.name==a=b']) {
      const r = await list(selector);
      assert.equal(r.status, 400, selector);
      assert.equal(r.json().message, 'invalid field selector: unescaped character in value: 61');
    }
  });

  it('escaped \\, \\= and \\\\ match the value they stand for; empty terms are skipped', async () => {
    await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'plain' } } });
    for (const selector of ['metadata.name=a\\,b', 'metadata.name=a\\=b', 'metadata.name=a\\\\b']) {
      const r = await list(selector);
      assert.equal(r.status, 200, selector);
      assert.deepEqual(r.json().items, []);
    }
    const both = await list('metadata.name=plain,,metadata.namespace=default');
    assert.equal(both.status, 200, both.body);
    assert.deepEqual(both.json().items.map((i: { metadata: { name: string } }) => i.metadata.name), ['plain']);
  });
});
