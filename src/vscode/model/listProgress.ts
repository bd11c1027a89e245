import type { Probe } from '../../informer/index.ts';

// The progress of an informer's list (the first one, or a relist), from its probes: objects and
// pages received so far and the rate, for the tree's informer row and the status bar while a large
// resource loads. Pages arrive one by one (500 objects each by default) before the cache is filled.

export interface ListProgressSnapshot {
  objects: number;
  pages: number;
  /** Objects per second since the list started. */
  perSecond: number;
  elapsedMs: number;
}

export class ListProgress {
  private startedAt: number | undefined;
  private objects = 0;
  private pages = 0;
  /** Items of the page under way decoded so far (a large page reports as it decodes). */
  private decoding = 0;

  /** Follows one probe; true when the progress changed. */
  observe(p: Probe): boolean {
    switch (p.kind) {
      case 'listStart':
        this.startedAt = p.at;
        this.objects = 0;
        this.pages = 0;
        this.decoding = 0;
        return true;
      case 'listItems':
        if (this.startedAt === undefined) return false;
        this.decoding = p.items;
        return true;
      case 'listPage':
        if (this.startedAt === undefined) return false;
        this.objects += p.items;
        this.decoding = 0;
        this.pages++;
        return true;
      case 'listEnd':
      case 'stopped':
        this.startedAt = undefined;
        return true;
      case 'backoff':
        // A list that failed part way starts over from nothing.
        if (this.startedAt === undefined) return false;
        this.startedAt = undefined;
        return true;
      default:
        return false;
    }
  }

  /** Objects listed so far (0 when no list is under way). */
  get listed(): number {
    return this.startedAt === undefined ? 0 : this.objects + this.decoding;
  }

  snapshot(now: number): ListProgressSnapshot | undefined {
    if (this.startedAt === undefined) return undefined;
    const elapsedMs = Math.max(0, now - this.startedAt);
    const objects = this.objects + this.decoding;
    return { objects, pages: this.pages, perSecond: elapsedMs > 0 ? (objects * 1000) / elapsedMs : 0, elapsedMs };
  }
}

/** `12,500 objects listed (25 pages, 8.1k/s)`. */
export function describeListProgress(p: ListProgressSnapshot): string {
  const rate = p.perSecond >= 1000 ? `${(p.perSecond / 1000).toFixed(1)}k/s` : `${Math.round(p.perSecond)}/s`;
  return `${p.objects.toLocaleString('en-US')} objects listed (${p.pages} ${p.pages === 1 ? 'page' : 'pages'}, ${rate})`;
}
