import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import type { ConvertedVersion } from './convertedVersion.ts';

// events.k8s.io/v1 Events are the core v1 Events under other field names, stored once (as in
// kube-apiserver, where both APIs read and write the same `events` storage): regarding is
// involvedObject, note is message, reportingController is reportingComponent, and the old
// counters are deprecated*. These convert between the two and translate field selectors.

const RENAMES: [events: string, core: string][] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function rename(obj: Readonly<KubeObject>, from: 0 | 1, apiVersion: string): KubeObject {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    const pair = RENAMES.find((p) => p[from] === key);
    out[pair ? pair[1 - from]! : key] = value;
  }
  out['apiVersion'] = apiVersion;
  out['kind'] = 'Event';
  return out as KubeObject;
}

/** An events.k8s.io/v1 Event as the core v1 Event it is stored as. */
export function eventsV1ToCore(obj: Readonly<KubeObject>): KubeObject {
  return rename(obj, 0, 'v1');
}

/** A stored core v1 Event as events.k8s.io/v1 shows it. */
export function coreToEventsV1(obj: Readonly<KubeObject>): KubeObject {
  return rename(obj, 1, 'events.k8s.io/v1');
}

/** `regarding.name=x,reportingController=y` → `involvedObject.name=x,reportingComponent=y`. */
export function coreFieldSelector(selector: string | undefined): string | undefined {
  if (!selector) return selector;
  return selector.replace(/(^|,)\s*(!?)([A-Za-z.]+)/g, (_m, sep: string, not: string, field: string) => {
    const [head, ...rest] = field.split('.');
    const pair = RENAMES.find((p) => p[0] === head);
    return `${sep}${not}${pair ? [pair[1], ...rest].join('.') : field}`;
  });
}

/**
 * ValidateEventCreate's rules for events created through events.k8s.io/v1 (stricter than core
 * v1's): an eventTime, a type of Normal or Warning, none of the deprecated fields. Field names are
 * the internal (core) ones, as the API server reports them.
 */
export function validateEventsV1Create(core: Readonly<KubeObject>): Cause[] {
  const e = core as Record<string, unknown>;
  const causes: Cause[] = [];
  if (!e['eventTime']) causes.push({ reason: 'FieldValueRequired', field: 'eventTime', message: 'Required value' });
  if (e['type'] !== 'Normal' && e['type'] !== 'Warning') causes.push({ reason: 'FieldValueInvalid', field: 'type', message: `Invalid value: "": has invalid value: ${String(e['type'] ?? '')}` });
  if (e['firstTimestamp']) causes.push({ reason: 'FieldValueInvalid', field: 'firstTimestamp', message: 'Invalid value: "": needs to be unset' });
  if (e['lastTimestamp']) causes.push({ reason: 'FieldValueInvalid', field: 'lastTimestamp', message: 'Invalid value: "": needs to be unset' });
  if (typeof e['count'] === 'number' && e['count'] !== 0) causes.push({ reason: 'FieldValueInvalid', field: 'count', message: 'Invalid value: "": needs to be unset' });
  const source = e['source'] as { component?: string; host?: string } | undefined;
  if (source?.component || source?.host) causes.push({ reason: 'FieldValueInvalid', field: 'source', message: 'Invalid value: "": needs to be unset' });
  return causes;
}

export const eventsV1Version: ConvertedVersion = {
  stored: { group: '', version: 'v1', resource: 'events' },
  type: { apiVersion: 'events.k8s.io/v1', kind: 'Event' },
  toServed: coreToEventsV1,
  toStored: eventsV1ToCore,
  storedFieldSelector: coreFieldSelector,
  validateCreate: validateEventsV1Create,
};
