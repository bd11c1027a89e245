// Every fault applied through the fault table (the admin endpoint, the CLI, scenario steps, the
// cluster's own applyFault), in order: what a checker marks on a run's timeline, and what a
// finding's replay applies again. Bounded: the oldest entries go first.

export interface AppliedFault {
  /** The fault's name in the table. */
  readonly name: string;
  /** Its arguments as the table read them. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The cluster's resourceVersion when it was applied. */
  readonly resourceVersion: number;
  /** When, on the cluster's clock (ms). */
  readonly at: number;
}

/** Entries kept. */
export const FAULT_HISTORY_LIMIT = 10_000;

export class FaultHistory {
  private entries: AppliedFault[] = [];

  add(entry: AppliedFault): void {
    this.entries.push(entry);
    if (this.entries.length > FAULT_HISTORY_LIMIT) this.entries = this.entries.slice(-FAULT_HISTORY_LIMIT);
  }

  all(): AppliedFault[] {
    return [...this.entries];
  }
}
