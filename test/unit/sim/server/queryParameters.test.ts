import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import { QueryParameters } from '../../../../src/sim/server/queryParameters.ts';

const is400 = (e: unknown) => e instanceof ApiError && e.code === 400;
const is422 = (e: unknown) => e instanceof ApiError && e.code === 422;

test('list parameters', () => {
  const q = new QueryParameters('resourceVersion=10&resourceVersionMatch=Exact&limit=500&labelSelector=app%3Dweb&fieldSelector=metadata.name%3Dx');
  assert.deepEqual(q.listRequest('ns'), {
    namespace: 'ns', resourceVersion: '10', resourceVersionMatch: 'Exact', limit: 500, labelSelector: 'app=web', fieldSelector: 'metadata.name=x',
  });
  assert.deepEqual(new QueryParameters('limit=1&continue=abc').listRequest(''), { namespace: '', limit: 1, continue: 'abc' });
  assert.deepEqual(new QueryParameters('').listRequest(''), { namespace: '' });
});

test('watch parameters', () => {
  const q = new QueryParameters('watch=1&resourceVersion=5&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=30');
  assert.equal(q.isWatch(), true);
  assert.deepEqual(q.watchRequest(''), {
    namespace: '', resourceVersion: '5', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true, sendInitialEvents: true, timeoutSeconds: 30,
  });
  assert.equal(new QueryParameters('watch=true').isWatch(), true);
  const defaulted = new QueryParameters('watch=1').watchRequest('').timeoutSeconds!;
  assert.ok(defaulted >= 1800 && defaulted <= 3600, `default watch timeout ${defaulted}`);
  assert.equal(new QueryParameters('watch=false').isWatch(), false);
});

test('malformed values are refused (400; 422 for invalid options)', () => {
  assert.throws(() => new QueryParameters('limit=abc').listRequest(''), is400);
  assert.throws(() => new QueryParameters('watch=maybe').isWatch(), is400);
  assert.throws(() => new QueryParameters('resourceVersion=1&resourceVersionMatch=Newest').listRequest(''), is422);
  assert.throws(() => new QueryParameters('dryRun=Some').writeContext({}), is422);
  assert.throws(() => new QueryParameters('propagationPolicy=Now').deleteOptions(undefined), (e: unknown) => e instanceof ApiError && e.code === 422 && e.message.startsWith('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Now"'));
  assert.throws(() => new QueryParameters('fieldValidation=Loose').writeContext({}), is422);
});

test('a malformed number is answered with strconv\'s words, as the API server passes them on', () => {
  const message = (query: string) => {
    try {
      new QueryParameters(query).listRequest('');
    } catch (e) {
      return e instanceof ApiError ? `${e.code} ${e.message}` : String(e);
    }
    return 'accepted';
  };
  assert.equal(message('limit=abc'), '400 strconv.ParseInt: parsing "abc": invalid syntax');
  assert.equal(message('limit=99999999999999999999'), '400 strconv.ParseInt: parsing "99999999999999999999": value out of range');
  assert.equal(message('limit=-5'), 'accepted');
  assert.throws(() => new QueryParameters('watch=1&timeoutSeconds=abc').watchRequest(''), (e: unknown) => is400(e) && (e as Error).message === 'strconv.ParseInt: parsing "abc": invalid syntax');
  assert.equal(new QueryParameters('gracePeriodSeconds=-1').deleteOptions(undefined).gracePeriodSeconds, undefined, 'a negative grace period is the default one');
});

test('write context and delete options', () => {
  const base = { client: { userAgent: 'kubectl', tokenId: 't' } };
  assert.deepEqual(new QueryParameters('').writeContext(base), { ...base, warnings: [] });
  assert.deepEqual(new QueryParameters('dryRun=All&fieldManager=kubectl-client-side-apply&fieldValidation=Strict').writeContext(base), {
    ...base, dryRun: true, fieldManager: 'kubectl-client-side-apply', fieldValidation: 'Strict', warnings: [],
  });
  // A body is all the options: kube-apiserver does not read the query's when there is one.
  assert.deepEqual(new QueryParameters('gracePeriodSeconds=0&propagationPolicy=Orphan').deleteOptions({ propagationPolicy: 'Background', preconditions: { uid: 'u1' } }), {
    propagationPolicy: 'Background', preconditions: { uid: 'u1' },
  });
  assert.deepEqual(new QueryParameters('gracePeriodSeconds=0&propagationPolicy=Orphan').deleteOptions(undefined), { propagationPolicy: 'Orphan', gracePeriodSeconds: 0 });
});
