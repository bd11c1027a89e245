import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock, TimerHandle } from '../../shared/clock.ts';
import type { KubeObject } from '../../shared/k8s.ts';

// Snapshots of the store in `<stateDir>/state.json`, written after writes settle (debounced) and
// read at start. The resourceVersion is saved too, so RVs keep rising across restarts; history is
// not saved (like a restarted apiserver's watch cache, which starts empty).

export interface Snapshot {
  version: 1;
  resourceVersion: number;
  objects: { group: string; resource: string; object: KubeObject }[];
}

export function loadSnapshot(stateDir: string): Snapshot | undefined {
  let text: string;
  try {
    text = readFileSync(join(stateDir, 'state.json'), 'utf8');
  } catch {
    return undefined;
  }
  const parsed = JSON.parse(text) as Snapshot;
  if (parsed.version !== 1 || typeof parsed.resourceVersion !== 'number' || !Array.isArray(parsed.objects)) {
    throw new Error(`${join(stateDir, 'state.json')}: not a Controller Lab state file`);
  }
  return parsed;
}

/** The snapshot's JSON, built from each object's cached JSON (nothing is stringified twice). */
export function snapshotJson(resourceVersion: number, objects: Iterable<{ group: string; resource: string; json: string }>): string {
  const parts: string[] = [];
  for (const o of objects) parts.push(`{"group":${JSON.stringify(o.group)},"resource":${JSON.stringify(o.resource)},"object":${o.json}}`);
  return `{"version":1,"resourceVersion":${resourceVersion},"objects":[${parts.join(',')}]}`;
}

/** Writes atomically (temp file + rename), so a crash never leaves half a snapshot. */
export function saveSnapshot(stateDir: string, json: string): void {
  mkdirSync(stateDir, { recursive: true });
  const file = join(stateDir, 'state.json');
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, json);
  renameSync(tmp, file);
}

/** Calls `save` once writes have been quiet for `debounceMs` (and at most every 10 × debounce). */
export class DebouncedSaver {
  private timer: TimerHandle | undefined;
  private firstPendingAt: number | undefined;
  private readonly clock: Clock;
  private readonly debounceMs: number;
  private readonly save: () => void;

  constructor(clock: Clock, debounceMs: number, save: () => void) {
    this.clock = clock;
    this.debounceMs = debounceMs;
    this.save = save;
  }

  touch(): void {
    const now = this.clock.now();
    this.firstPendingAt ??= now;
    this.timer?.cancel();
    const overdue = now - this.firstPendingAt >= this.debounceMs * 10;
    this.timer = this.clock.setTimer(overdue ? 0 : this.debounceMs, () => this.flush());
  }

  flush(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.firstPendingAt === undefined) return;
    this.firstPendingAt = undefined;
    this.save();
  }
}
