import { laneLabel, type LaneLabel } from './laneLabel.ts';

type LaneOfLabel = Parameters<typeof laneLabel>[0];

// A lane label cut to the gutter's width. Which object a lane is needs its namespace as much as its
// name (`prod/web` and `staging/web` are different lanes), so when space runs out the kind gives
// way first, then the name loses its middle (its start and its generated suffix both tell objects
// apart), and the namespace is cut last.

const ELLIPSIS = '…';

/** `text` cut at its end to fit `max`, with an ellipsis. */
export function clipEnd(text: string, max: number, measure: (s: string) => number): string {
  if (max <= 0) return '';
  if (measure(text) <= max) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (measure(text.slice(0, mid) + ELLIPSIS) <= max) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : text.slice(0, lo) + ELLIPSIS;
}

/** `text` cut in its middle to fit `max`: its start and end stay. */
export function clipMiddle(text: string, max: number, measure: (s: string) => number): string {
  if (max <= 0) return '';
  if (measure(text) <= max) return text;
  // The most characters kept, split between start and end (the end gets the extra one).
  let lo = 0;
  let hi = text.length - 1;
  const cut = (n: number) => text.slice(0, Math.floor(n / 2)) + ELLIPSIS + text.slice(text.length - Math.ceil(n / 2));
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (measure(cut(mid)) <= max) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : cut(lo);
}

/** The name's share of a gutter too narrow for the whole label; the namespace gets the rest first. */
const NAME_SHARE = 0.55;

/** The least of a cut kind worth drawing (`Dep…`): shorter, it says nothing. */
const KIND_MIN_CHARS = 3;

/** The lane's label within `max`. */
export function fitLaneLabel(lane: LaneOfLabel, showCluster: boolean, max: number, measure: (s: string) => number): LaneLabel {
  const label = laneLabel(lane, showCluster);
  const suffix = clipEnd(label.suffix, max / 3, measure);
  const room = max - measure(suffix);
  if (measure(label.prefix) + measure(label.name) <= room) return { prefix: label.prefix, name: label.name, suffix };
  if (lane.isInformerLane) return { prefix: label.prefix, name: clipEnd(label.name, room - measure(label.prefix), measure), suffix };
  const kind = lane.kind ?? lane.resource;
  const namespace = lane.namespace ? `${lane.namespace}/` : '';
  // The name and the namespace share the room (up to NAME_SHARE for the name); the kind gets what is left.
  const nameWant = Math.min(measure(label.name), room * NAME_SHARE);
  const namespaceText = clipMiddle(namespace, Math.min(measure(namespace), room - nameWant), measure);
  const kindRoom = room - nameWant - measure(namespaceText) - measure(' ');
  const cutKind = clipEnd(kind, kindRoom, measure);
  const kindText = cutKind === kind || cutKind.length > KIND_MIN_CHARS ? `${cutKind} ` : '';
  const prefix = `${kindText}${namespaceText}`;
  return { prefix, name: clipMiddle(label.name, room - measure(prefix), measure), suffix };
}

/** A reconcile lane's label, `⚙ namespace/name`, within `max`: the namespace stays, the name loses its middle. */
export function fitRequestKey(requestKey: string, max: number, measure: (s: string) => number): string {
  const gear = '⚙ ';
  const room = max - measure(gear);
  const slash = requestKey.indexOf('/');
  const namespace = slash < 0 ? '' : requestKey.slice(0, slash + 1);
  const name = requestKey.slice(slash + 1);
  if (measure(namespace) + measure(name) <= room) return `${gear}${requestKey}`;
  const namespaceText = clipMiddle(namespace, Math.min(measure(namespace), room - Math.min(measure(name), room * NAME_SHARE)), measure);
  return `${gear}${namespaceText}${clipMiddle(name, room - measure(namespaceText), measure)}`;
}
