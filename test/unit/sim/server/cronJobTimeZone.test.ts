// A CronJob's spec.timeZone, validated as kube-apiserver's validateTimeZone does: an IANA name Go's
// time.LoadLocation finds, never empty or "Local" (the e2e "CronJob should support timezone").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const CRONJOBS = '/apis/batch/v1/namespaces/default/cronjobs';
const cronJob = (name: string, timeZone: string) => ({
  apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name },
  spec: { schedule: '*/1 * * * ?', timeZone, jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } },
});

describe('a CronJob\'s timeZone', () => {
  it('an unknown zone is a 422 naming it, in time.LoadLocation\'s words', async () => {
    const r = await call(suite.server, 'POST', CRONJOBS, { body: cronJob('bad-zone', 'bad-time-zone') });
    assert.equal(r.status, 422, r.body);
    assert.equal(r.json().message, 'CronJob.batch "bad-zone" is invalid: spec.timeZone: Invalid value: "bad-time-zone": unknown time zone bad-time-zone');
    const local = await call(suite.server, 'POST', CRONJOBS, { body: cronJob('local-zone', 'Local') });
    assert.equal(local.json().details.causes[0].message, 'Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones');
    const empty = await call(suite.server, 'POST', CRONJOBS, { body: cronJob('empty-zone', '') });
    assert.equal(empty.json().details.causes[0].message, 'Invalid value: "": timeZone must be nil or non-empty string');
  });

  it('an IANA zone is taken', async () => {
    for (const [name, zone] of [['new-york', 'America/New_York'], ['utc', 'UTC'], ['gmt-plus', 'Etc/GMT+5']]) {
      const r = await call(suite.server, 'POST', CRONJOBS, { body: cronJob(name!, zone!) });
      assert.equal(r.status, 201, `${zone}: ${r.body}`);
    }
  });
});
