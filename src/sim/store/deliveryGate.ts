// What a watcher asks the faults before it delivers: read at delivery time, so a fault switched on
// or off applies to the watches already open. Each watcher has a gate of its own, which combines
// the faults on every watch with those on the watches of the user its request ran as.

export interface DeliveryGate {
  /** ms added before each watch event is delivered (0: none). */
  readonly eventDelayMs: number;
  /** Events stay queued, in order, until this turns false (the watcher is then woken). */
  readonly eventsWithheld: boolean;
  readonly bookmarksWithheld: boolean;
  /** Whether some object's events may be held for coalescing (a cheap test before holdFor). */
  readonly holding: boolean;
  /**
   * How long to hold this event of one object (`resource`, `key`, the event's resourceVersion)
   * for a later event of the same object to replace; undefined: send it.
   */
  holdFor(resource: string, key: string, resourceVersion: string): number | undefined;
}
