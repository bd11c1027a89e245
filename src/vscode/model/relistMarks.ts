import type { Probe } from '../../informer/index.ts';

// Where the timeline marks a relist, for every informer it shows (the lab's and the controllers'
// own): once per relist, when its list completes, at that list's resourceVersion. An informer's
// first list is its start, not a relist; a relist whose list fails and is tried again is still one
// relist, marked when a list gets through.

export class RelistMarks {
  /** Informers (by probe name) that completed a list. */
  private readonly listed = new Set<string>();

  /** The resourceVersion to mark a relist at, when this probe completes one; else undefined. */
  relistAt(probe: Probe): string | undefined {
    if (probe.kind !== 'listEnd') return undefined;
    if (this.listed.has(probe.informer)) return probe.resourceVersion;
    this.listed.add(probe.informer);
    return undefined;
  }
}
