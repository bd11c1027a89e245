// CronJob schedules as robfig/cron's ParseStandard reads them (what kube-controller-manager uses):
// five fields — minute, hour, day of month, month, day of week — each `*`, `?`, numbers, names
// (JAN…DEC, SUN…SAT), ranges, lists and `/steps`, or a descriptor (@hourly, @daily, @weekly,
// @monthly, @yearly, @every <duration>). When both day fields are restricted a day matches either;
// when one is `*`, only the other counts. Times are wall-clock times in the schedule's time zone.

export interface CronSchedule {
  /** The first scheduled time strictly after `afterMs` (epoch ms), or undefined when none comes within five years. */
  next(afterMs: number): number | undefined;
}

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTH_NAMES = Object.fromEntries(['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].map((m, i) => [m, i + 1]));
const DAY_NAMES = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d, i) => [d, i]));
const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTH_NAMES },
  { min: 0, max: 6, names: DAY_NAMES },
];
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

interface Field {
  values: Set<number>;
  /** Written as `*` or `?` (robfig's star bit): the field does not restrict the day. */
  star: boolean;
}

function number(text: string, bounds: Bounds): number {
  const named = bounds.names?.[text.toLowerCase()];
  const n = named ?? (/^\d+$/.test(text) ? Number(text) : NaN);
  if (!Number.isInteger(n) || n < bounds.min || n > bounds.max) throw new Error(`${text} is out of range ${bounds.min}-${bounds.max}`);
  return n;
}

function parseField(text: string, bounds: Bounds): Field {
  const values = new Set<number>();
  let star = false;
  for (const part of text.split(',')) {
    const [range = '', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`bad step in ${part}`);
    let low: number;
    let high: number;
    if (range === '*' || range === '?') {
      [low, high] = [bounds.min, bounds.max];
      if (step === 1) star = true;
    } else {
      const [a = '', b] = range.split('-');
      low = number(a, bounds);
      // "N/step" means from N to the end.
      high = b !== undefined ? number(b, bounds) : stepText !== undefined ? bounds.max : low;
      if (high < low) throw new Error(`range ${range} goes backwards`);
    }
    for (let v = low; v <= high; v += step) values.add(v);
  }
  return { values, star };
}

/** The wall-clock fields of an instant in a time zone (UTC when none is given). */
function wallClock(ms: number, timeZone: string | undefined): { year: number; month: number; day: number; hour: number; minute: number } {
  if (!timeZone || timeZone === 'UTC' || timeZone === 'Etc/UTC') {
    const d = new Date(ms);
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes() };
  }
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' }).formatToParts(ms);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute') };
}

/** The instant a wall-clock minute in the time zone stands for (its first, when a clock change repeats it). */
function instantOf(wallMs: number, timeZone: string | undefined): number {
  if (!timeZone || timeZone === 'UTC' || timeZone === 'Etc/UTC') return wallMs;
  let guess = wallMs;
  for (let i = 0; i < 3; i++) {
    const w = wallClock(guess, timeZone);
    const offset = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - Math.floor(guess / 60_000) * 60_000;
    guess = wallMs - offset;
  }
  return guess;
}

const GO_DURATION = /^(\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;
const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function every(text: string): CronSchedule {
  if (!GO_DURATION.test(text)) throw new Error(`failed to parse duration ${text}`);
  let ms = 0;
  for (const [, value, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) ms += Number(value) * UNIT_MS[unit!]!;
  // robfig rounds the delay down to whole seconds, at least one.
  const delay = Math.max(1000, Math.floor(ms / 1000) * 1000);
  return { next: (afterMs) => Math.floor(afterMs / 1000) * 1000 + delay };
}

/** Parses a schedule; throws an Error saying what is wrong. */
export function parseCronSchedule(schedule: string, timeZone?: string): CronSchedule {
  let text = schedule.trim();
  // Old schedules name their zone in the text; the timeZone field replaced that.
  const prefix = /^(?:CRON_)?TZ=(\S+)\s+/.exec(text);
  if (prefix) {
    timeZone ??= prefix[1];
    text = text.slice(prefix[0].length);
  }
  if (timeZone) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone });
    } catch {
      throw new Error(`unknown time zone ${timeZone}`);
    }
  }
  if (text.startsWith('@every ')) return every(text.slice('@every '.length).trim());
  text = DESCRIPTORS[text.toLowerCase()] ?? text;
  const parts = text.split(/\s+/);
  if (parts.length !== 5) throw new Error(`expected exactly 5 fields, found ${parts.length}: ${schedule}`);
  const [minute, hour, dom, month, dow] = parts.map((p, i) => parseField(p, FIELDS[i]!)) as [Field, Field, Field, Field, Field];

  const dayMatches = (wall: Date): boolean => {
    const domMatch = dom.values.has(wall.getUTCDate());
    const dowMatch = dow.values.has(wall.getUTCDay());
    return dom.star || dow.star ? domMatch && dowMatch : domMatch || dowMatch;
  };

  return {
    next(afterMs) {
      const start = wallClock(afterMs, timeZone);
      // Walk wall-clock time (a UTC Date standing for the zone's clock), skipping whole months,
      // days and hours that cannot match, as robfig's Next does.
      const t = new Date(Date.UTC(start.year, start.month - 1, start.day, start.hour, start.minute + 1));
      const limit = start.year + 5;
      while (t.getUTCFullYear() <= limit) {
        if (!month.values.has(t.getUTCMonth() + 1)) {
          t.setUTCMonth(t.getUTCMonth() + 1, 1);
          t.setUTCHours(0, 0, 0, 0);
          continue;
        }
        if (!dayMatches(t)) {
          t.setUTCDate(t.getUTCDate() + 1);
          t.setUTCHours(0, 0, 0, 0);
          continue;
        }
        if (!hour.values.has(t.getUTCHours())) {
          t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
          continue;
        }
        if (!minute.values.has(t.getUTCMinutes())) {
          t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
          continue;
        }
        const at = instantOf(t.getTime(), timeZone);
        if (at > afterMs) return at;
        t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
      }
      return undefined;
    },
  };
}
