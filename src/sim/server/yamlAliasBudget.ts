// yaml.v2's guard against alias bombs ("billion laughs"), which kube-apiserver's YAML reading has:
// nine anchors of nine aliases each expand to 387 million strings from 300 bytes. Every node read
// is counted, and those read under an alias too; past 1,000 reads and 100 aliased ones, the share
// read under aliases may not pass 99% (a document under 400,000 reads), falling to 10% at
// 4,000,000 reads. An alias inside its own anchor's value is refused as yaml.v2 refuses it.

const RANGE_LOW = 400_000;
const RANGE_HIGH = 4_000_000;

function allowedAliasRatio(reads: number): number {
  if (reads <= RANGE_LOW) return 0.99;
  if (reads >= RANGE_HIGH) return 0.1;
  return 0.99 - 0.89 * ((reads - RANGE_LOW) / (RANGE_HIGH - RANGE_LOW));
}

export class YamlAliasBudget {
  private reads = 0;
  private aliasedReads = 0;
  private aliasDepth = 0;
  private readonly expanding = new Set<object>();

  /** Counts one node read; throws yaml.v2's error once aliases have expanded too far. */
  read(): void {
    this.reads++;
    if (this.aliasDepth > 0) this.aliasedReads++;
    if (this.aliasedReads > 100 && this.reads > 1000 && this.aliasedReads / this.reads > allowedAliasRatio(this.reads)) {
      throw new Error('document contains excessive aliasing');
    }
  }

  /** Runs `expand` as the reading of `anchored` through an alias named `name`. */
  throughAlias<T>(name: string, anchored: object, expand: () => T): T {
    if (this.expanding.has(anchored)) throw new Error(`anchor '${name}' value contains itself`);
    this.expanding.add(anchored);
    this.aliasDepth++;
    try {
      return expand();
    } finally {
      this.aliasDepth--;
      this.expanding.delete(anchored);
    }
  }
}
