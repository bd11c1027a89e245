// What a controller's event handlers have been given, per watched resource: the acknowledgement a
// check waits for before it calls a run quiet. Sending every event to a watch is not enough: a
// loaded machine's controller may not have read it, or be still handing it (or a relist) to its
// handlers, and a run judged over then reads an end state the controller had not finished.
//
// A view is the objects a handler has been given (added or changed, not deleted since), reduced to
// their count and the sum of their resourceVersions: once the handler has taken in everything its
// watches sent, that equals the same digest of what the cluster holds in the watches' scope. A relist
// that changes nothing gives handlers nothing (client-go passes an unchanged object to no handler)
// and leaves the view as it was, which is right: it already was the cluster's.

export interface HandledView {
  objects: number;
  /** The sum of the objects' resourceVersions (the sim's are integers). */
  rvSum: number;
}

export interface HandledResource {
  /** `plural` or `plural.group`, as the cluster's watches name it. */
  resource: string;
  /** One per event handler of the resource's informer(s): each must have caught up. */
  views: HandledView[];
}

/** A view kept up as a handler is given events; `view()` is its digest. */
export class HandlerView {
  private readonly versions = new Map<string, number>();
  private rvSum = 0;

  /** The handler was given `key` at `resourceVersion` (deleted: gone from its view). */
  given(key: string, resourceVersion: string, deleted: boolean): void {
    this.rvSum -= this.versions.get(key) ?? 0;
    this.versions.delete(key);
    if (deleted) return;
    const rv = Number(resourceVersion) || 0;
    this.versions.set(key, rv);
    this.rvSum += rv;
  }

  view(): HandledView {
    return { objects: this.versions.size, rvSum: this.rvSum };
  }
}

export function sameView(a: HandledView, b: HandledView): boolean {
  return a.objects === b.objects && a.rvSum === b.rvSum;
}
