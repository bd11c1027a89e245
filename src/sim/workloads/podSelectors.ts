import type { KubeObject } from '../../shared/k8s.ts';
import type { LabelSelector } from '../../shared/labelSelector.ts';

// The objects that select Pods by label (Services, PodDisruptionBudgets), kept from a controller's
// watch as its informer cache would keep them, indexed by namespace with their selectors parsed
// once, to map a Pod event to the objects it concerns: those selecting the Pod now, and those that
// did before (a relabelled or deleted Pod leaves them too).

type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export class PodSelectors {
  private readonly byNamespace = new Map<string, Map<string, LabelSelector>>();
  private readonly selectedBefore = new Map<string, string[]>();
  private readonly selectorOf: (object: Readonly<KubeObject>) => LabelSelector | undefined;

  /** `selectorOf` answers undefined for an object that selects no Pods. */
  constructor(selectorOf: (object: Readonly<KubeObject>) => LabelSelector | undefined) {
    this.selectorOf = selectorOf;
  }

  /** For the watch of the selecting kind: remembers the object's selector and answers its own key. */
  readonly ownerKeys = (object: Readonly<KubeObject>, type: EventType): string[] => {
    const namespace = object.metadata.namespace ?? '';
    const key = `${namespace}/${object.metadata.name ?? ''}`;
    let selectors = this.byNamespace.get(namespace);
    const selector = type === 'DELETED' ? undefined : this.selectorOf(object);
    if (selector) {
      if (!selectors) this.byNamespace.set(namespace, (selectors = new Map()));
      selectors.set(key, selector);
    } else if (selectors) {
      selectors.delete(key);
      if (selectors.size === 0) this.byNamespace.delete(namespace);
    }
    return [key];
  };

  /** For the Pods watch: the keys of the objects that select the Pod or did (a deleted Pod by its last labels). */
  readonly podKeys = (pod: Readonly<KubeObject>, type: EventType): string[] => {
    const namespace = pod.metadata.namespace ?? '';
    const podKey = `${namespace}/${pod.metadata.name ?? ''}`;
    const labels = pod.metadata.labels ?? {};
    const now: string[] = [];
    for (const [key, selector] of this.byNamespace.get(namespace) ?? []) if (selector.matches(labels)) now.push(key);
    const before = this.selectedBefore.get(podKey);
    if (now.length > 0 && type !== 'DELETED') this.selectedBefore.set(podKey, now);
    else this.selectedBefore.delete(podKey);
    return before ? [...new Set([...before, ...now])] : now;
  };
}
