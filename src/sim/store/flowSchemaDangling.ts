import type { KubeObject } from '../../shared/k8s.ts';
import { timestamp } from '../vocabulary/objectMeta.ts';
import type { HistoryEvent } from './history.ts';
import type { ResourceTable } from './mvccStore.ts';

// kube-apiserver's APF configuration controller (its "consumer") keeps each FlowSchema's Dangling
// condition: False (Found) while the PriorityLevelConfiguration it names exists, True (NotFound)
// otherwise, applied to /status as its own manager. It looks again whenever a FlowSchema is written
// and whenever a priority level comes or goes.

export const APF_GROUP = 'flowcontrol.apiserver.k8s.io';
export const APF_CONSUMER = 'api-priority-and-fairness-config-consumer-v1';

interface Condition { type?: string; status?: string; reason?: string; message?: string; lastTransitionTime?: string }

const levelOf = (schema: Readonly<KubeObject>): string => String((schema.spec as { priorityLevelConfiguration?: { name?: unknown } } | undefined)?.priorityLevelConfiguration?.name ?? '');

/** The names of the FlowSchemas an APF write may have changed the Dangling condition of. */
export function flowSchemasToCheck(table: ResourceTable, event: HistoryEvent, schemas: ResourceTable): string[] {
  const obj = event.object.object;
  if (table.resource === 'flowschemas') return event.type === 'DELETED' ? [] : [obj.metadata.name ?? ''];
  if (event.type === 'MODIFIED') return [];
  const level = obj.metadata.name;
  return [...schemas.current.values()].map((s) => s.object).filter((s) => levelOf(s) === level).map((s) => s.metadata.name ?? '');
}

/** The status the consumer applies to a FlowSchema, or undefined when its condition already says so. */
export function danglingApply(schema: Readonly<KubeObject>, levelExists: boolean, now: number): KubeObject | undefined {
  const level = levelOf(schema);
  const want: Condition = levelExists
    ? { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(level)} and it exists` }
    : { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(level)} but there is no such object` };
  const conditions = ((schema.status as { conditions?: Condition[] } | undefined)?.conditions ?? []);
  const have = conditions.find((c) => c.type === 'Dangling');
  if (have && have.status === want.status && have.reason === want.reason && have.message === want.message) return undefined;
  return {
    apiVersion: `${APF_GROUP}/v1beta3`, kind: 'FlowSchema', metadata: { name: schema.metadata.name },
    status: { conditions: [{ ...want, lastTransitionTime: timestamp(now) }] },
  } as KubeObject;
}
