import type { KubeObject } from './k8s.ts';

// A core/v1 Event about an object, as client-go's EventRecorder writes it: in the object's namespace
// (`default` for a cluster-scoped one), named after the object and the time in nanoseconds, with a
// count that a repeat of the same event raises. Used by the simulated cluster's own controllers and
// by `ctx.recorder` in a TypeScript controller.

export type EventType = 'Normal' | 'Warning';

export interface EventSource {
  component: string;
  /** The Node, for a kubelet's events. */
  host?: string;
}

export interface EventSpec {
  type: EventType;
  reason: string;
  message: string;
  /** A part of the object (`spec.containers{web}`). */
  fieldPath?: string;
}

/** Tells apart the events of one millisecond (client-go's names use nanoseconds). */
let sequence = 0;

export function eventName(objectName: string, nowMs: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${objectName}.${(BigInt(nowMs) * 1_000_000n + BigInt(sequence)).toString(16)}`;
}

/** ISO time without milliseconds, as metav1.Time. */
function timeString(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** What makes two events the same one, whose count a repeat raises (client-go's correlator key). */
export function eventIdentity(object: Readonly<KubeObject>, spec: EventSpec, source: EventSource): string {
  const meta = object.metadata;
  return JSON.stringify([source.component, source.host ?? '', object.kind ?? '', meta.namespace ?? '', meta.name ?? '', meta.uid ?? '', spec.fieldPath ?? '', spec.type, spec.reason, spec.message]);
}

export function newEvent(object: Readonly<KubeObject>, spec: EventSpec, source: EventSource, nowMs: number): KubeObject {
  const meta = object.metadata;
  const involvedObject: Record<string, string> = { kind: object.kind ?? '', name: meta.name ?? '', uid: meta.uid ?? '', apiVersion: object.apiVersion ?? '', resourceVersion: meta.resourceVersion ?? '' };
  if (meta.namespace) involvedObject.namespace = meta.namespace;
  if (spec.fieldPath) involvedObject.fieldPath = spec.fieldPath;
  const now = timeString(nowMs);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: eventName(meta.name ?? '', nowMs), namespace: meta.namespace || 'default' },
    involvedObject,
    reason: spec.reason,
    message: spec.message,
    source: source.host ? { component: source.component, host: source.host } : { component: source.component },
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
    type: spec.type,
    reportingComponent: source.component,
    reportingInstance: source.host ?? '',
  };
}

/** The fields a repeat changes: a merge patch for the Event already written. */
export function repeatPatch(count: number, nowMs: number): { count: number; lastTimestamp: string } {
  return { count, lastTimestamp: timeString(nowMs) };
}

/** Where an Event was written and its count, to raise on a repeat. */
export interface WrittenEvent {
  namespace: string;
  name: string;
  count: number;
}

/** The events a recorder wrote, newest kept: client-go's correlator remembers 4,096. */
export class WrittenEvents {
  private readonly byIdentity = new Map<string, WrittenEvent>();
  private readonly limit: number;

  constructor(limit = 4096) {
    this.limit = limit;
  }

  get(identity: string): WrittenEvent | undefined {
    return this.byIdentity.get(identity);
  }

  set(identity: string, event: WrittenEvent): void {
    this.byIdentity.delete(identity);
    this.byIdentity.set(identity, event);
    if (this.byIdentity.size > this.limit) this.byIdentity.delete(this.byIdentity.keys().next().value!);
  }

  delete(identity: string): void {
    this.byIdentity.delete(identity);
  }
}
