// kubectl's AGE column: how long ago an object was created, in the largest unit that keeps it
// under two of the next (42s, 5m, 3h, 12d).

/** Whole seconds from `creationTimestamp` to `now` (ms), never negative; NaN when there is none or it cannot be read. */
export function ageSeconds(creationTimestamp: string | undefined, now: number): number {
  if (!creationTimestamp) return NaN;
  return Math.max(0, Math.floor((now - timestampMs(creationTimestamp)) / 1000));
}

/** The number kubectl shows for an age of `seconds` (see ageUnit). */
export function ageCount(seconds: number): number {
  if (seconds < 120) return seconds;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return minutes;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? hours : Math.floor(hours / 24);
}

/** The unit kubectl shows for an age of `seconds`: s, m, h or d. */
export function ageUnit(seconds: number): string {
  return seconds < 120 ? 's' : seconds < 120 * 60 ? 'm' : seconds < 48 * 3600 ? 'h' : 'd';
}

/** kubectl's short ages: 42s, 5m, 3h, 12d; `<unknown>` without a readable timestamp. */
export function age(creationTimestamp: string | undefined, now: number): string {
  const seconds = ageSeconds(creationTimestamp, now);
  return Number.isNaN(seconds) ? UNKNOWN_AGE : `${ageCount(seconds)}${ageUnit(seconds)}`;
}

export const UNKNOWN_AGE = '<unknown>';

/**
 * A Kubernetes timestamp in ms since the epoch. Its usual form, RFC 3339 in UTC to the second
 * (2026-01-01T00:00:00Z), is read digit by digit: `watch` prints an age per event, and Date.parse
 * cost as much as the rest of the line; the date becomes days by arithmetic (Date.UTC, a call into
 * the runtime, cost half of reading it). Anything else goes to Date.parse.
 */
export function timestampMs(text: string): number {
  if (text.length !== 20 || text.charCodeAt(19) !== Z) return Date.parse(text);
  const year = digits(text, 0, 4, DASH);
  const month = digits(text, 5, 2, DASH);
  const day = digits(text, 8, 2, T);
  const hour = digits(text, 11, 2, COLON);
  const minute = digits(text, 14, 2, COLON);
  const second = digits(text, 17, 2, Z);
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59)) return Date.parse(text);
  return daysSinceEpoch(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000;
}

const DASH = 0x2d;
const COLON = 0x3a;
const T = 0x54;
const Z = 0x5a;

/** The number written in `text` at `at` with `count` digits and followed by `then`; NaN otherwise. */
function digits(text: string, at: number, count: number, then: number): number {
  if (text.charCodeAt(at + count) !== then) return NaN;
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
 * days_from_civil): years counted from March, so that the leap day ends each 400-year era.
 */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
