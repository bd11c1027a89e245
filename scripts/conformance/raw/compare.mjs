// How two answers to the same request are compared: HTTP status, a Status's reason, its message
// (with what differs between any two servers — resourceVersions, uids, times, generated names —
// put in words), and the body's shape: its keys and value types, not its values.

/** The shape of a JSON value: objects by their sorted keys, arrays by their distinct element shapes. */
export function shape(v) {
  if (Array.isArray(v)) return `[${[...new Set(v.map(shape))].sort().join('|')}]`;
  if (v === null) return 'null';
  if (typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${k}:${shape(v[k])}`).join(',')}}`;
  return typeof v === 'string' ? 's' : typeof v === 'number' ? 'n' : typeof v === 'boolean' ? 'b' : typeof v;
}

/** Every resourceVersion and uid an answer holds, to be replaced in messages. */
function volatileValues(answers) {
  const found = new Set();
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if ((k === 'resourceVersion' || k === 'uid') && typeof x === 'string' && x) found.add(x);
        else walk(x);
      }
    }
  };
  answers.forEach((a) => walk(a?.body));
  return [...found].sort((a, b) => b.length - a.length);
}

export function normalizeMessage(message, answers) {
  if (typeof message !== 'string') return message;
  let m = message;
  // Whole values only: a resourceVersion such as 234 is no part of 12345 in a message.
  for (const v of volatileValues(answers)) m = m.replace(new RegExp(`(?<![0-9A-Za-z])${v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9A-Za-z])`, 'g'), '<volatile>');
  return m
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/current: \d+/g, 'current: <rv>')
    .replace(/dec-gen-[a-z0-9]{5}/g, 'dec-gen-<suffix>');
}

const statusOf = (body) => (body && typeof body === 'object' && body.kind === 'Status' ? body : undefined);

/** Compares a probe's answers; `setupReal`/`setupSim` are the probe's setup answers, for normalizing. */
export function compare(real, sim, setupReal = [], setupSim = []) {
  const rs = statusOf(real.body);
  const ss = statusOf(sim.body);
  const fields = {
    status: real.status === sim.status,
    reason: rs?.reason === ss?.reason,
    message: normalizeMessage(rs?.message, [real, ...setupReal]) === normalizeMessage(ss?.message, [sim, ...setupSim]),
    shape: shape(real.body) === shape(sim.body),
  };
  return { alike: Object.values(fields).every(Boolean), fields };
}

/** The first difference between two shapes, as a short path for the report. */
export function shapeDifference(a, b, path = '') {
  if (shape(a) === shape(b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    if (Array.isArray(a)) return a.length && b.length ? shapeDifference(a[0], b[0], `${path}[0]`) : `${path}: ${a.length} vs ${b.length} items`;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of [...keys].sort()) {
      if (!(k in b)) return `${path}.${k} only on the real server`;
      if (!(k in a)) return `${path}.${k} only on the sim`;
      const d = shapeDifference(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path || 'body'}: ${shape(a).slice(0, 40)} vs ${shape(b).slice(0, 40)}`;
}

/** The value at a dotted path; a `#` segment is an array's length. */
export function valueAt(body, path) {
  let v = body;
  for (const key of path.split('.')) {
    if (v === undefined || v === null) return undefined;
    v = key === '#' && Array.isArray(v) ? v.length : v[key];
  }
  return v;
}

const VOLATILE_KEYS = new Set(['time', 'resourceVersion', 'uid', 'creationTimestamp', 'deletionTimestamp', 'lastTransitionTime']);

/**
 * A value with what differs between any two servers (times, uids, resourceVersions) put as
 * present, and object keys sorted: their order means nothing to a client.
 */
function stable(v) {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, VOLATILE_KEYS.has(k) ? '<volatile>' : stable(v[k])]));
  return v;
}

/**
 * The paths of `paths` whose values differ between the two bodies. A resourceVersion path compares
 * whether the write moved it on from the setup's last answer, the one thing two servers share.
 */
export function differingValues(paths = [], real, sim, setupReal = [], setupSim = []) {
  const moved = (a, setup) => valueAt(a.body, 'metadata.resourceVersion') !== valueAt(setup.at(-1)?.body, 'metadata.resourceVersion');
  return paths.filter((p) => {
    if (p === 'metadata.resourceVersion') return moved(real, setupReal) !== moved(sim, setupSim);
    return JSON.stringify(stable(valueAt(real.body, p))) !== JSON.stringify(stable(valueAt(sim.body, p)));
  });
}
