import type { KubeObject } from '../../shared/k8s.ts';
import { conflict } from '../../shared/apiErrors.ts';
import { ApiError } from '../../shared/apiError.ts';

// POST …/pods/{name}/binding, what the scheduler sends: the Pod gets spec.nodeName and the
// Binding's annotations, and a PodScheduled=True condition. Like kube-apiserver's BindingREST it
// writes the Pod directly (no Pod update validation: nodeName is otherwise immutable) and refuses a
// Pod that is bound already, being deleted, or gated.

type Binding = KubeObject & { target?: { kind?: unknown; name?: unknown } };
type Pod = KubeObject & { spec?: { nodeName?: string; schedulingGates?: unknown[] }; status?: { conditions?: Record<string, unknown>[] } };

/** ValidatePodBinding's errors are returned as a plain error: a 500 with no reason, as the real server answers them. */
function bindingInvalid(message: string): Error {
  return ApiError.fromStatus({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

export function checkBinding(binding: Readonly<KubeObject>): void {
  const target = (binding as Binding).target ?? {};
  const problems: string[] = [];
  if (typeof target.kind === 'string' && target.kind !== '' && target.kind !== 'Node') {
    problems.push(`target.kind: Unsupported value: ${JSON.stringify(target.kind)}: supported values: "Node", "<empty>"`);
  }
  if (typeof target.name !== 'string' || target.name === '') problems.push('target.name: Required value');
  if (problems.length === 1) throw bindingInvalid(problems[0]!);
  if (problems.length > 1) throw bindingInvalid(`[${problems.join(', ')}]`);
}

export function bindPod(current: Readonly<KubeObject>, body: Readonly<KubeObject>, now: string): KubeObject {
  checkBinding(body);
  const name = current.metadata.name ?? '';
  const refuse = (why: string) => conflict('', 'pods/binding', name, why);
  const pre = body.metadata ?? {};
  if (pre.uid && pre.uid !== current.metadata.uid) throw conflict('', 'pods', name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
  if (current.metadata.deletionTimestamp) throw refuse(`pod ${name} is being deleted, cannot be assigned to a host`);
  const pod = structuredClone(current) as Pod;
  const spec = (pod.spec ??= {});
  if (spec.nodeName) throw refuse(`pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
  if (spec.schedulingGates?.length) throw refuse(`pod ${name} has non-empty .spec.schedulingGates`);
  spec.nodeName = String((body as Binding).target?.name);
  if (pre.annotations) pod.metadata.annotations = { ...pod.metadata.annotations, ...pre.annotations };
  const status = (pod.status ??= {});
  const conditions = (status.conditions ??= []);
  const scheduled = conditions.find((c) => c['type'] === 'PodScheduled');
  if (!scheduled) conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now });
  else if (scheduled['status'] !== 'True') Object.assign(scheduled, { status: 'True', lastTransitionTime: now });
  return pod;
}
