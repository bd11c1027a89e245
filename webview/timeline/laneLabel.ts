import { PERTURBATIONS } from '../../src/shared/protocol/timeline.ts';
import type { Lane } from './eventStore.ts';

// What a lane is called in the gutter: the kind, then namespace/name, then — only when events of
// more than one cluster are shown — whose cluster. An informer's own lane (bookmarks, relists, 410s)
// reads ⟳ and the resource it watches; a controller's perturbations (a replayed check finding), ⚡.

export interface LaneLabel {
  /** Drawn muted before the name: `ConfigMap default/`. */
  prefix: string;
  name: string;
  /** Drawn muted after the name: ` · Simulated cluster`. */
  suffix: string;
}

export function laneLabel(lane: Pick<Lane, 'kind' | 'resource' | 'namespace' | 'name' | 'cluster' | 'informer' | 'isInformerLane'>, showCluster: boolean): LaneLabel {
  const suffix = showCluster && lane.cluster ? ` · ${lane.cluster}` : '';
  if (lane.isInformerLane) return { prefix: lane.resource === PERTURBATIONS ? '⚡ ' : '⟳ ', name: lane.informer.slice(lane.informer.indexOf('/') + 1), suffix };
  return { prefix: `${lane.kind ?? lane.resource} ${lane.namespace ? `${lane.namespace}/` : ''}`, name: lane.name, suffix };
}

export function laneLabelText(label: LaneLabel): string {
  return `${label.prefix}${label.name}${label.suffix}`;
}
