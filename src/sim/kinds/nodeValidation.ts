import type { KubeObject } from '../../shared/k8s.ts';
import type { Cause } from '../../shared/apiErrors.ts';
import { validateLabels } from '../vocabulary/metadataValidation.ts';
import { forbidden, invalid, isRecord, notSupported, records, required } from './fieldErrors.ts';

// ValidateNode[Update] (core/v1, v1.28), the spec part a client writes: taints (reported under
// metadata.taints, as kube-apiserver's path has it), pod CIDRs, and the pod CIDRs and provider
// ID a node keeps once they are set.

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const CIDR = /^(\d{1,3}(\.\d{1,3}){3}\/\d{1,2}|[0-9a-fA-F:]+\/\d{1,3})$/;

/** A taint as Go's %#v prints the internal core.Taint. */
const goTaint = (t: Record<string, unknown>): string =>
  `core.Taint{Key:${JSON.stringify(String(t.key ?? ''))}, Value:${JSON.stringify(String(t.value ?? ''))}, Effect:${JSON.stringify(String(t.effect ?? ''))}, TimeAdded:(*v1.Time)(nil)}`;

function validateTaints(taints: unknown): Cause[] {
  const causes: Cause[] = [];
  const seen = new Set<string>();
  records(taints).forEach((t, i) => {
    const at = `metadata.taints[${i}]`;
    const key = String(t.key ?? '');
    // A label name (key) and a label value, as ValidateLabelName and IsValidLabelValue check them.
    causes.push(...validateLabels({ [key]: '' }, `${at}.key`), ...validateLabels({ key: String(t.value ?? '') }, `${at}.value`));
    const effect = String(t.effect ?? '');
    if (effect === '') causes.push(required(`${at}.effect`));
    else if (!EFFECTS.includes(effect)) causes.push(notSupported(`${at}.effect`, effect, EFFECTS));
    const unique = `${effect}\u0000${key}`;
    if (seen.has(unique)) causes.push({ reason: 'FieldValueDuplicate', field: at, message: `Duplicate value: ${goTaint(t)}: taints must be unique by key and effect pair` });
    seen.add(unique);
  });
  return causes;
}

export function validateNode(o: Readonly<KubeObject>): Cause[] {
  const spec = isRecord(o.spec) ? o.spec : {};
  const causes = validateTaints(spec.taints);
  const cidrs = Array.isArray(spec.podCIDRs) ? spec.podCIDRs.map(String) : [];
  cidrs.forEach((c, i) => {
    if (!CIDR.test(c)) causes.push(invalid(`spec.podCIDRs[${i}]`, cidrs, 'must be valid CIDR'));
  });
  return causes;
}

export function validateNodeUpdate(before: Readonly<KubeObject>, after: Readonly<KubeObject>): Cause[] {
  const was = isRecord(before.spec) ? before.spec : {};
  const now = isRecord(after.spec) ? after.spec : {};
  const causes: Cause[] = [];
  const oldCidrs = Array.isArray(was.podCIDRs) ? was.podCIDRs.map(String) : [];
  const newCidrs = Array.isArray(now.podCIDRs) ? now.podCIDRs.map(String) : [];
  const podCidrs = (): Cause => forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid');
  if (oldCidrs.length > 0) {
    if (oldCidrs.length !== newCidrs.length) causes.push(podCidrs());
    else oldCidrs.forEach((c, i) => c !== newCidrs[i] && causes.push(podCidrs()));
  }
  if (was.providerID && was.providerID !== now.providerID) causes.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  return causes;
}
