// How far a large scenario's objects are, read or applied: said about once a second, from the
// first second on, so that a scenario of tens of thousands of objects is not a silent minute and
// a small one says nothing.

export interface ObjectsProgress {
  phase: 'read' | 'applied';
  done: number;
  total: number;
  elapsedMs: number;
}

export type ObjectsProgressListener = (progress: ObjectsProgress) => void;

/** A counter to call with each object done; it calls `listener` at most once a second. */
export function progressEvery(listener: ObjectsProgressListener | undefined, phase: ObjectsProgress['phase'], total: number): (done: number) => void {
  if (!listener) return () => {};
  const started = performance.now();
  let next = started + 1000;
  return (done) => {
    // The clock is read every 64 objects, not for each one.
    if (done % 64 !== 0) return;
    const now = performance.now();
    if (now < next) return;
    next = now + 1000;
    listener({ phase, done, total, elapsedMs: now - started });
  };
}

/** `reading objects: 12000/60000 (2400/s)` */
export function describeObjectsProgress(p: ObjectsProgress): string {
  const rate = p.elapsedMs > 0 ? Math.round((p.done * 1000) / p.elapsedMs) : 0;
  return `${p.phase === 'read' ? 'reading' : 'applying'} objects: ${p.done}/${p.total} (${rate}/s)`;
}
