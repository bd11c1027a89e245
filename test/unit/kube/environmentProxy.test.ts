import { test } from 'node:test';
import assert from 'node:assert/strict';
import { environmentProxy } from '../../../src/kube/environmentProxy.ts';
import { KubeconfigError, describeFailure } from '../../../src/kube/errors.ts';

// Go's http.ProxyFromEnvironment, case by case: which proxy a server gets, if any.

const PROXY = 'http://proxy.corp:3128/';
const proxyFor = (server: string, env: NodeJS.ProcessEnv): string | undefined => environmentProxy(new URL(server), env);

test('the variable is chosen by the server scheme; upper case wins; an empty one counts as unset', () => {
  const cases: [string, NodeJS.ProcessEnv, string | undefined][] = [
    ['https://kube.example.com:6443', {}, undefined],
    ['https://kube.example.com:6443', { HTTPS_PROXY: 'http://s.corp:1' }, 'http://s.corp:1/'],
    ['https://kube.example.com:6443', { https_proxy: 'http://s.corp:1' }, 'http://s.corp:1/'],
    ['https://kube.example.com:6443', { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:1' }, 'http://upper:1/'],
    ['https://kube.example.com:6443', { HTTPS_PROXY: '', https_proxy: 'http://lower:1' }, 'http://lower:1/'],
    // An https server never uses HTTP_PROXY, nor an http server HTTPS_PROXY.
    ['https://kube.example.com:6443', { HTTP_PROXY: 'http://h.corp:1' }, undefined],
    ['http://kube.example.com:8080', { HTTPS_PROXY: 'http://s.corp:1' }, undefined],
    ['http://kube.example.com:8080', { HTTP_PROXY: 'http://h.corp:1', HTTPS_PROXY: 'http://s.corp:1' }, 'http://h.corp:1/'],
    ['http://kube.example.com:8080', { http_proxy: 'http://h.corp:1' }, 'http://h.corp:1/'],
  ];
  for (const [server, env, expected] of cases) assert.equal(proxyFor(server, env), expected, `${server} ${JSON.stringify(env)}`);
});

test('proxy values: no scheme means http://; https, socks5 and credentials are kept', () => {
  const cases: [string, string][] = [
    ['proxy.corp:3128', 'http://proxy.corp:3128/'],
    ['10.0.0.9:3128', 'http://10.0.0.9:3128/'],
    ['localhost:3128', 'http://localhost:3128/'],
    ['https://proxy.corp', 'https://proxy.corp/'],
    ['socks5://bastion:1080', 'socks5://bastion:1080'],
    ['http://user:p%40ss@proxy.corp:3128', 'http://user:p%40ss@proxy.corp:3128/'],
  ];
  for (const [value, expected] of cases) assert.equal(proxyFor('https://kube.example.com', { HTTPS_PROXY: value }), expected, value);
});

test('localhost and loopback addresses are never proxied, whatever the environment says', () => {
  const env = { HTTPS_PROXY: PROXY, HTTP_PROXY: PROXY };
  for (const server of ['https://127.0.0.1:6443', 'http://127.0.0.1:8080', 'https://127.8.9.10', 'https://localhost:6443', 'https://LOCALHOST', 'https://[::1]:6443', 'https://[::ffff:127.0.0.1]:6443']) {
    assert.equal(proxyFor(server, env), undefined, server);
  }
  // Only those: a private address or a name that merely starts with localhost goes through the proxy.
  for (const server of ['https://10.0.0.1:6443', 'https://localhost.example.com', 'https://128.0.0.1']) assert.equal(proxyFor(server, env), PROXY, server);
});

test('NO_PROXY: names with their subdomains, leading dot for subdomains only, IPs, CIDRs, ports, *', () => {
  // [NO_PROXY, server, bypassed?]
  const cases: [string, string, boolean][] = [
    ['kube.example.com', 'https://kube.example.com:6443', true],
    ['example.com', 'https://kube.example.com:6443', true],
    ['example.com', 'https://example.com:6443', true],
    ['example.com', 'https://notexample.com:6443', false],
    ['.example.com', 'https://kube.example.com', true],
    ['.example.com', 'https://example.com', false],
    ['*.example.com', 'https://kube.example.com', true],
    ['*.example.com', 'https://example.com', false],
    ['EXAMPLE.com', 'https://Kube.Example.COM', true],
    ['example.com:6443', 'https://kube.example.com:6443', true],
    ['example.com:6443', 'https://kube.example.com:443', false],
    ['example.com:443', 'https://kube.example.com', true], // the scheme's port when the URL has none
    ['10.0.0.1', 'https://10.0.0.1:6443', true],
    ['10.0.0.1', 'https://10.0.0.2:6443', false],
    ['10.0.0.1:6443', 'https://10.0.0.1:6443', true],
    ['10.0.0.1:443', 'https://10.0.0.1:6443', false],
    ['10.0.0.0/8', 'https://10.20.30.40:6443', true],
    ['10.0.0.0/8', 'https://11.0.0.1:6443', false],
    ['10.0.0.0/8', 'https://ten.example.com', false],
    ['192.168.1.0/24', 'https://192.168.1.77', true],
    ['fd00::/8', 'https://[fd00::1]:6443', true],
    ['2001:db8::1', 'https://[2001:db8:0::1]', true],
    ['[2001:db8::1]:6443', 'https://[2001:db8::1]:6443', true],
    ['[2001:db8::1]:6443', 'https://[2001:db8::1]:443', false],
    ['*', 'https://kube.example.com', true],
    ['other.org, kube.example.com ,', 'https://kube.example.com', true],
    ['other.org,10.0.0.0/33,:80,,', 'https://kube.example.com', false], // malformed entries are skipped
    ['bücher.example', 'https://xn--bcher-kva.example', true],
  ];
  for (const [noProxy, server, bypassed] of cases) {
    assert.equal(proxyFor(server, { HTTPS_PROXY: PROXY, NO_PROXY: noProxy }), bypassed ? undefined : PROXY, `NO_PROXY=${noProxy} ${server}`);
  }
  assert.equal(proxyFor('https://kube.example.com', { HTTPS_PROXY: PROXY, no_proxy: 'example.com' }), undefined, 'lower-case no_proxy');
  assert.equal(proxyFor('https://kube.example.com', { HTTPS_PROXY: PROXY, NO_PROXY: 'other.org', no_proxy: 'example.com' }), PROXY, 'upper case wins');
});

test('a malformed proxy value is a kubeconfig failure naming the variable, without the password', () => {
  const cases: [NodeJS.ProcessEnv, string][] = [
    [{ HTTPS_PROXY: 'http://[oops' }, 'HTTPS_PROXY is not a valid proxy URL: "http://[oops"'],
    [{ https_proxy: 'http://proxy:99999' }, 'https_proxy is not a valid proxy URL: "http://proxy:99999"'],
    [{ HTTPS_PROXY: 'ftp://proxy.corp' }, 'HTTPS_PROXY has an unsupported proxy scheme "ftp" (use http, https or socks5): "ftp://proxy.corp"'],
    [{ HTTPS_PROXY: 'socks5://' }, 'HTTPS_PROXY names no proxy host: "socks5://"'],
    [{ HTTPS_PROXY: 'http://alice:s3cret@[oops' }, 'HTTPS_PROXY is not a valid proxy URL: "http://alice:***@[oops"'],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => proxyFor('https://kube.example.com', env), (err: unknown) => {
      assert.ok(err instanceof KubeconfigError);
      assert.deepEqual(describeFailure(err), { kind: 'kubeconfig', message });
      return true;
    });
  }
  // Only the value that would be used is read: a broken HTTP_PROXY does not stop an https cluster,
  // and a broken proxy does not stop a server it would not be used for.
  assert.equal(proxyFor('https://kube.example.com', { HTTP_PROXY: 'http://[oops' }), undefined);
  assert.equal(proxyFor('https://127.0.0.1:6443', { HTTPS_PROXY: 'http://[oops' }), undefined);
  assert.equal(proxyFor('https://kube.example.com', { HTTPS_PROXY: 'http://[oops', NO_PROXY: 'example.com' }), undefined);
});
