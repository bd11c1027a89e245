import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCronSchedule } from '../../../../src/sim/workloads/cronSchedule.ts';

// CronJob schedules read as kube-controller-manager reads them (robfig/cron's standard parser).

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());
const nexts = (schedule: string, from: string, n: number, timeZone?: string): (string | undefined)[] => {
  const s = parseCronSchedule(schedule, timeZone);
  const out: (string | undefined)[] = [];
  let t: number | undefined = at(from);
  for (let i = 0; i < n && t !== undefined; i++) out.push(iso((t = s.next(t))));
  return out;
};

test('steps, ranges, lists and names, each time strictly after the one before', () => {
  assert.deepEqual(nexts('*/15 * * * *', '2026-03-01T10:07:30Z', 3), ['2026-03-01T10:15:00.000Z', '2026-03-01T10:30:00.000Z', '2026-03-01T10:45:00.000Z']);
  assert.deepEqual(nexts('0 9 * * MON-FRI', '2026-03-06T09:00:00Z', 2), ['2026-03-09T09:00:00.000Z', '2026-03-10T09:00:00.000Z'], 'Friday 09:00 itself is not after itself; then Monday');
  assert.deepEqual(nexts('30 2 1,15 jan,Jul *', '2026-01-20T00:00:00Z', 2), ['2026-07-01T02:30:00.000Z', '2026-07-15T02:30:00.000Z']);
  assert.deepEqual(nexts('5/20 * * * *', '2026-03-01T10:00:00Z', 3), ['2026-03-01T10:05:00.000Z', '2026-03-01T10:25:00.000Z', '2026-03-01T10:45:00.000Z'], '"N/step" runs from N to the end');
});

test('a day matches either restricted day field, or only the restricted one when the other is *', () => {
  // 2026-02-13 is a Friday: the 13th or any Friday.
  assert.deepEqual(nexts('0 0 13 * FRI', '2026-02-01T00:00:00Z', 3), ['2026-02-06T00:00:00.000Z', '2026-02-13T00:00:00.000Z', '2026-02-20T00:00:00.000Z']);
  assert.deepEqual(nexts('0 0 13 * *', '2026-02-01T00:00:00Z', 1), ['2026-02-13T00:00:00.000Z']);
  assert.deepEqual(nexts('0 0 29 2 *', '2026-01-01T00:00:00Z', 1), ['2028-02-29T00:00:00.000Z'], 'the next leap day');
});

test('descriptors and @every', () => {
  assert.deepEqual(nexts('@hourly', '2026-03-01T10:07:00Z', 2), ['2026-03-01T11:00:00.000Z', '2026-03-01T12:00:00.000Z']);
  assert.deepEqual(nexts('@weekly', '2026-03-01T10:00:00Z', 1), ['2026-03-08T00:00:00.000Z']);
  assert.deepEqual(nexts('@every 1m30s', '2026-03-01T10:00:00.400Z', 2), ['2026-03-01T10:01:30.000Z', '2026-03-01T10:03:00.000Z']);
});

test('a time zone schedules by its wall clock, across a daylight-saving change', () => {
  // New York is UTC-5 in winter and UTC-4 from 2026-03-08.
  assert.deepEqual(nexts('0 9 * * *', '2026-03-06T00:00:00Z', 3, 'America/New_York'), ['2026-03-06T14:00:00.000Z', '2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z']);
  // 09:00 in Tokyo (UTC+9) is midnight UTC; the zone may also come in the schedule's text, as old CronJobs wrote it.
  assert.deepEqual(nexts('TZ=Asia/Tokyo 0 9 * * *', '2026-03-06T00:00:00Z', 1), ['2026-03-07T00:00:00.000Z']);
});

test('bad schedules say what is wrong', () => {
  assert.throws(() => parseCronSchedule('60 * * * *'), /60 is out of range 0-59/);
  assert.throws(() => parseCronSchedule('* * * *'), /expected exactly 5 fields, found 4/);
  assert.throws(() => parseCronSchedule('0 9 * * *', 'Mars/Olympus'), /unknown time zone Mars\/Olympus/);
  assert.throws(() => parseCronSchedule('0 9 * * FUNDAY'), /FUNDAY is out of range/);
  assert.throws(() => parseCronSchedule('@every soon'), /failed to parse duration soon/);
});
