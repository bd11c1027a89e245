import type { Cause } from '../../shared/apiErrors.ts';
import { duplicate, invalid, isRecord, records, required } from './fieldErrors.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { validateQualifiedName } from '../vocabulary/metadataValidation.ts';
import { AGE_COLUMN, col, list, NAME_COLUMN } from '../vocabulary/tableCells.ts';

// CSINodes (storage.k8s.io/v1): the CSI drivers a kubelet has registered on its Node, named after
// the Node (ValidateCSINode): each driver once, with the node's ID in that driver's terms.

const NODE_ID_MAX = 192;

function validateDriver(driver: Record<string, unknown>, path: string, seen: Set<string>): Cause[] {
  const causes: Cause[] = [];
  const name = typeof driver['name'] === 'string' ? driver['name'] : '';
  if (name === '') causes.push(required(`${path}.name`));
  const nodeID = typeof driver['nodeID'] === 'string' ? driver['nodeID'] : '';
  if (nodeID === '') causes.push(required(`${path}.nodeID`));
  else if (nodeID.length > NODE_ID_MAX) causes.push(invalid(`${path}.nodeID`, nodeID, `must be ${NODE_ID_MAX} characters or less`));
  const count = isRecord(driver['allocatable']) ? driver['allocatable']['count'] : undefined;
  if (typeof count === 'number' && count < 0) causes.push(invalid(`${path}.allocatable.count`, count, 'must be greater than or equal to 0'));
  if (seen.has(name)) causes.push(duplicate(`${path}.name`, name));
  seen.add(name);
  const keys = new Set<string>();
  for (const key of Array.isArray(driver['topologyKeys']) ? driver['topologyKeys'].map(String) : []) {
    if (keys.has(key)) causes.push(duplicate(path, key));
    keys.add(key);
    causes.push(...(key === '' ? [required(path)] : validateQualifiedName(key, path)));
  }
  return causes;
}

export const csiNodeStrategy: KindStrategy = {
  validate(o): Cause[] {
    const seen = new Set<string>();
    const spec = isRecord(o['spec']) ? o['spec'] : {};
    return records(spec['drivers']).flatMap((d, i) => validateDriver(d, `spec.drivers[${i}]`, seen));
  },
};

export const csiNodeKind: KindModule = {
  api: { group: 'storage.k8s.io', version: 'v1', resource: 'csinodes', kind: 'CSINode', namespaced: false },
  strategy: csiNodeStrategy,
  columns: [NAME_COLUMN, col('Drivers', (o) => list(o, 'spec.drivers').length, 'integer'), AGE_COLUMN],
};
