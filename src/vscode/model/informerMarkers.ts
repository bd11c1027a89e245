import type { Probe } from '../../informer/index.ts';

// The timeline's markers of what an informer does, decided here for every informer it shows (the
// lab's and the controllers' own), from the informer's probes: EXPIRED where the server ended its
// watch with 410, and RELIST once per relist, when its list completes, at that list's
// resourceVersion. An informer's first list is its start, not a relist; a relist whose list fails
// and is tried again is still one relist, marked when a list gets through. (BOOKMARK and ERROR are
// what the server sent: they come with the watch events.)

export interface InformerMarker {
  type: 'RELIST' | 'EXPIRED';
  resourceVersion: string;
}

export class InformerMarkers {
  /** Informers (by probe name) that completed a list. */
  private readonly listed = new Set<string>();

  /** The marker this probe makes, if any. Every probe of these informers must pass through here, in order. */
  markerFor(probe: Probe): InformerMarker | undefined {
    switch (probe.kind) {
      case 'expired':
        return { type: 'EXPIRED', resourceVersion: probe.resourceVersion };
      case 'listEnd': {
        const relist = this.listed.has(probe.informer);
        this.listed.add(probe.informer);
        return relist ? { type: 'RELIST', resourceVersion: probe.resourceVersion } : undefined;
      }
      default:
        return undefined;
    }
  }
}
