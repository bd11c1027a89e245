import type { Cause } from '../../shared/apiErrors.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { invalid, isRecord } from './fieldErrors.ts';

// What kube-apiserver's apps validation asks of a workload's status on a /status write: no count
// below zero, and none of the ready, available, updated… counts above status.replicas (nor
// available above ready). A controller writing an impossible status is told so, in these words.

interface StatusRules {
  /** Counts that must not be negative, in the order the causes come (absent ones are Go's zero). */
  counts: string[];
  /** Pointer fields: checked only when set. */
  optional?: string[];
  /** Counts that may not exceed status.replicas. */
  atMostReplicas?: string[];
  /** How the rule that availableReplicas may not exceed readyReplicas words the limit. */
  readyLimit?: string;
}

const RULES: Record<string, StatusRules> = {
  Deployment: {
    counts: ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'],
    optional: ['collisionCount'],
    atMostReplicas: ['updatedReplicas', 'readyReplicas', 'availableReplicas'],
    readyLimit: 'readyReplicas',
  },
  ReplicaSet: {
    counts: ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
    atMostReplicas: ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'],
    readyLimit: 'readyReplicas',
  },
  StatefulSet: {
    counts: ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'],
    optional: ['observedGeneration', 'collisionCount'],
    atMostReplicas: ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'],
    readyLimit: 'status.readyReplicas',
  },
  DaemonSet: {
    counts: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable'],
    optional: ['collisionCount'],
  },
};

const count = (status: Record<string, unknown>, field: string): number => (typeof status[field] === 'number' ? (status[field] as number) : 0);

/** The causes for a workload's status after a /status write (none for kinds without rules here). */
export function validateWorkloadStatus(kind: string, o: Readonly<KubeObject>): Cause[] {
  const rules = RULES[kind];
  if (!rules) return [];
  const raw = (o as { status?: unknown }).status;
  const status = isRecord(raw) ? raw : {};
  const causes: Cause[] = [];
  const checked = [...rules.counts, ...(rules.optional ?? []).filter((f) => typeof status[f] === 'number')];
  for (const field of checked) if (count(status, field) < 0) causes.push(invalid(`status.${field}`, count(status, field), 'must be greater than or equal to 0'));
  const replicas = count(status, 'replicas');
  for (const field of rules.atMostReplicas ?? []) {
    if (count(status, field) > replicas) causes.push(invalid(`status.${field}`, count(status, field), 'cannot be greater than status.replicas'));
  }
  if (rules.readyLimit && count(status, 'availableReplicas') > count(status, 'readyReplicas')) {
    causes.push(invalid('status.availableReplicas', count(status, 'availableReplicas'), `cannot be greater than ${rules.readyLimit}`));
  }
  return causes;
}
