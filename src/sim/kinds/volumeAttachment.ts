import type { Cause } from '../../shared/apiErrors.ts';
import { forbidden, immutable, isRecord, required } from './fieldErrors.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, str } from '../vocabulary/tableCells.ts';

// VolumeAttachments (storage.k8s.io/v1): the attach/detach controller's request that a CSI driver
// attach one volume to one node (ValidateVolumeAttachment and its v1 additions). The spec never
// changes once created; the driver's external-attacher reports through /status.

const SOURCE_ONE_OF = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';

/** ValidateCSIDriverName (v1's addition): required, at most 63 characters, a DNS subdomain once lowercased. */
function attacherCauses(attacher: string): Cause[] {
  const causes: Cause[] = attacher === '' ? [required('spec.attacher')] : [];
  if (attacher.length > 63) causes.push({ reason: 'FieldValueTooLong', field: 'spec.attacher', message: 'Too long: must have at most 63 bytes' });
  for (const c of validateName(attacher.toLowerCase(), 'subdomain', 'spec.attacher', attacher)) causes.push(c);
  return causes;
}

function sourceCauses(source: Record<string, unknown>): Cause[] {
  const pv = source['persistentVolumeName'];
  const inline = source['inlineVolumeSpec'];
  const hasPv = typeof pv === 'string';
  const hasInline = isRecord(inline);
  if (!hasPv && !hasInline) return [required('spec.source', SOURCE_ONE_OF)];
  if (hasPv && hasInline) return [forbidden('spec.source', SOURCE_ONE_OF)];
  if (!hasPv) return [];
  return pv === '' ? [required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName')] : [];
}

/** ValidatePersistentVolumeName (v1's addition), for a named volume. */
function persistentVolumeNameCauses(source: Record<string, unknown>): Cause[] {
  const pv = source['persistentVolumeName'];
  return typeof pv === 'string' ? validateName(pv, 'subdomain', 'spec.source.persistentVolumeName') : [];
}

export const volumeAttachmentStrategy: KindStrategy = {
  validate(o): Cause[] {
    const spec = isRecord(o['spec']) ? o['spec'] : {};
    const attacher = str(spec, 'attacher');
    const source = isRecord(spec['source']) ? spec['source'] : {};
    return [
      ...(attacher === '' ? [required('spec.attacher')] : []),
      ...sourceCauses(source),
      ...validateName(str(spec, 'nodeName'), 'subdomain', 'spec.nodeName'),
      ...attacherCauses(attacher),
      ...persistentVolumeNameCauses(source),
    ];
  },
  validateUpdate(before, after): Cause[] {
    return immutable('spec', before['spec'], after['spec']);
  },
};

export const volumeAttachmentKind: KindModule = {
  api: { group: 'storage.k8s.io', version: 'v1', resource: 'volumeattachments', kind: 'VolumeAttachment', namespaced: false, status: true },
  strategy: volumeAttachmentStrategy,
  zeroStatus: () => ({ attached: false }),
  columns: [
    NAME_COLUMN,
    { ...col('Attacher', (o) => str(o, 'spec.attacher'), 'string', 0, 'attacher indicates the name of the volume driver that MUST handle this request. This is the name returned by GetPluginName().'), format: 'name' },
    col('PV', (o) => str(o, 'spec.source.persistentVolumeName'), 'string', 0, 'persistentVolumeName represents the name of the persistent volume to attach.'),
    col('Node', (o) => str(o, 'spec.nodeName'), 'string', 0, 'nodeName represents the node that the volume should be attached to.'),
    col('Attached', (o) => field(o, 'status.attached') === true, 'boolean', 0, 'attached indicates the volume is successfully attached. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.'),
    AGE_COLUMN,
  ],
};
