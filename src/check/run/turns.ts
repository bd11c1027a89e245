// Turns to run, a few at a time: a run that is ready (its cluster up, its controller synced) waits
// for one before its scenario starts. When several wait, the earliest planned goes first, so the
// results, handed back in plan order, do not wait on a later run that overtook.

export class Turns {
  private free: number;
  private readonly waiting: { index: number; go: () => void }[] = [];

  constructor(atOnce: number) {
    this.free = atOnce;
  }

  /** Resolves once run `index` has a turn; give it back with `give`. */
  take(index: number): Promise<void> {
    if (this.free > 0 && this.waiting.length === 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((go) => {
      this.waiting.push({ index, go });
      this.waiting.sort((a, b) => a.index - b.index);
    });
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next.go();
    else this.free++;
  }
}
