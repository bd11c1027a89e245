// The `timeout` query parameter as kube-apiserver's request-deadline filter reads it (the e2e
// "Server request timeout" specs): a value Go's time.ParseDuration refuses is a 400 on any request
// that is not long-running; 0s and values past the server's maximum are served.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';
import { checkRequestTimeout, goDurationProblem } from '../../../../src/sim/server/requestDeadline.ts';

const suite = suiteServer();

describe('the timeout query parameter', () => {
  it('a malformed timeout is a 400 in the filter\'s words, on /version as on a resource', async () => {
    const version = await call(suite.server, 'GET', '/version?timeout=invalid');
    assert.equal(version.status, 400, version.body);
    assert.equal(version.json().reason, 'BadRequest');
    assert.equal(version.json().message, 'invalid timeout specified in the request URL - time: invalid duration "invalid"');
    const list = await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps?timeout=5');
    assert.equal(list.status, 400);
    assert.equal(list.json().message, 'invalid timeout specified in the request URL - time: missing unit in duration "5"');
  });

  it('0s, 3m and 32s are served; a watch is long-running and never checked', async () => {
    for (const timeout of ['0s', '3m', '32s', '1h2m3.5s']) {
      assert.equal((await call(suite.server, 'GET', `/version?timeout=${timeout}`)).status, 200, timeout);
    }
    assert.doesNotThrow(() => checkRequestTimeout('/api/v1/namespaces/default/configmaps', 'watch=true&timeout=bad'));
    assert.doesNotThrow(() => checkRequestTimeout('/api/v1/namespaces/default/pods/p/log', 'timeout=bad'));
  });

  it('reads durations as Go does', () => {
    assert.equal(goDurationProblem('0'), undefined);
    assert.equal(goDurationProblem('-1.5h'), undefined);
    assert.equal(goDurationProblem('.5s'), undefined);
    assert.equal(goDurationProblem(''), 'time: invalid duration ""');
    assert.equal(goDurationProblem('.s'), 'time: invalid duration ".s"');
    assert.equal(goDurationProblem('3x'), 'time: unknown unit "x" in duration "3x"');
    assert.equal(goDurationProblem('9999999h'), 'time: invalid duration "9999999h"');
  });
});
