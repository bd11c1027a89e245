import type { Cause } from '../../shared/apiErrors.ts';
import { invalid, sameValue } from './fieldErrors.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { validateLabelSelector } from './labelSelectorObject.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { parseQuantity, Quantity } from '../vocabulary/quantity.ts';
import { col, NAME_COLUMN, str } from '../vocabulary/tableCells.ts';

// CSIStorageCapacities (storage.k8s.io/v1): how much a CSI driver can still provision for one
// StorageClass in one topology segment (ValidateCSIStorageCapacity[Update]). The class and the
// topology are the question the capacity answers, so they never change; the capacity may.

export const csiStorageCapacityStrategy: KindStrategy = {
  validate(o): Cause[] {
    const causes = validateLabelSelector(o['nodeTopology'], 'nodeTopology');
    causes.push(...validateName(typeof o['storageClassName'] === 'string' ? o['storageClassName'] : '', 'subdomain', 'storageClassName'));
    const capacity = o['capacity'];
    const q = typeof capacity === 'string' || typeof capacity === 'number' ? parseQuantity(String(capacity)) : undefined;
    if (q && q.compare(new Quantity(0n, 1n)) < 0) causes.push(invalid('capacity', capacity, 'must be greater than or equal to 0'));
    return causes;
  },

  validateUpdate(before, after): Cause[] {
    const causes: Cause[] = [];
    if (!sameValue(before['nodeTopology'], after['nodeTopology'])) causes.push(invalid('nodeTopology', after['nodeTopology'], 'field is immutable'));
    if ((before['storageClassName'] ?? '') !== (after['storageClassName'] ?? '')) causes.push(invalid('storageClassName', after['storageClassName'], 'field is immutable'));
    return causes;
  },
};

export const csiStorageCapacityKind: KindModule = {
  api: { group: 'storage.k8s.io', version: 'v1', resource: 'csistoragecapacities', kind: 'CSIStorageCapacity' },
  strategy: csiStorageCapacityStrategy,
  // printCSIStorageCapacity: no AGE column.
  columns: [
    NAME_COLUMN,
    col('StorageClassName', (o) => str(o, 'storageClassName')),
    col('Capacity', (o) => {
      const c = o['capacity'];
      return typeof c === 'string' || typeof c === 'number' ? String(c) : '<unset>';
    }),
  ],
};
