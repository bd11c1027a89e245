import type { Probe, ProbeListener } from './probes.ts';

// Fan-out of probes to whoever listens. Producers check `active` before building a probe, so an
// informer nobody observes pays one boolean test per event and allocates nothing.

export class ProbeBus {
  private listeners: ProbeListener[] = [];
  /** True while at least one listener is attached. */
  active = false;

  on(listener: ProbeListener): () => void {
    this.listeners = [...this.listeners, listener];
    this.active = true;
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
      this.active = this.listeners.length > 0;
    };
  }

  /** Delivers to every listener; a listener that throws does not stop the others or the informer. */
  emit(probe: Probe): void {
    for (const listener of this.listeners) {
      try {
        listener(probe);
      } catch {
        // A broken observer must never break the informer it observes.
      }
    }
  }
}
