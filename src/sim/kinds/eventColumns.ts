import { col, field, humanDuration, num, str, type Obj, type TableColumn } from '../vocabulary/tableCells.ts';

// `kubectl get events` as v1.28's printEvent prints an Event (the server always renders the wide
// form; kubectl hides the priority-1 columns): when it was last and first seen (falling back to
// eventTime and a series' last observation), the object it is about as `kind/name`, the source as
// `component, host`, and a count that is 1 for a singleton event.

function ago(obj: Obj, path: string, now: number): string | undefined {
  const t = Date.parse(str(obj, path));
  return Number.isNaN(t) ? undefined : humanDuration(now - t);
}

function firstSeen(o: Obj, now: number): string {
  return ago(o, 'firstTimestamp', now) ?? ago(o, 'eventTime', now) ?? '<unknown>';
}

function lastSeen(o: Obj, now: number): string {
  if (field(o, 'series')) return ago(o, 'series.lastObservedTime', now) ?? '<unknown>';
  return ago(o, 'lastTimestamp', now) ?? firstSeen(o, now);
}

function count(o: Obj): number {
  if (field(o, 'series')) return num(o, 'series.count');
  return num(o, 'count') || 1;
}

function target(o: Obj): string {
  const kind = str(o, 'involvedObject.kind').toLowerCase();
  const name = str(o, 'involvedObject.name');
  return name ? `${kind}/${name}` : kind;
}

function source(o: Obj): string {
  const component = str(o, 'source.component') || str(o, 'reportingComponent');
  const instance = str(o, 'source.host') || str(o, 'reportingInstance');
  return instance ? `${component}, ${instance}` : component;
}

export const EVENT_COLUMNS: TableColumn[] = [
  col('Last Seen', lastSeen, 'string', 0, 'The time at which the most recent occurrence of this event was recorded.'),
  col('Type', (o) => str(o, 'type'), 'string', 0, 'Type of this event (Normal, Warning), new types could be added in the future'),
  col('Reason', (o) => str(o, 'reason'), 'string', 0, "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
  col('Object', target, 'string', 0, 'The object that this event is about.'),
  col('Subobject', (o) => str(o, 'involvedObject.fieldPath'), 'string', 1, 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.'),
  col('Source', source, 'string', 1, 'The component reporting this event. Should be a short machine understandable string.'),
  col('Message', (o) => str(o, 'message').trim(), 'string', 0, 'A human-readable description of the status of this operation.'),
  col('First Seen', firstSeen, 'string', 1, 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)'),
  col('Count', count, 'string', 1, 'The number of times this event has occurred.'),
  { ...col('Name', (o) => o.metadata.name ?? '', 'string', 1, 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names'), format: 'name' },
];
