import type { KindModule } from './kindModule.ts';
import { obj, setDefault, type Obj } from './defaulting.ts';
import { col, NAME_COLUMN, str } from '../vocabulary/tableCells.ts';

// CustomResourceDefinitions (apiextensions.k8s.io/v1). What a CRD does once stored (serving its
// resources, its status conditions, its schema) lives in src/sim/resources/crd.ts and
// src/sim/store/crdLifecycle.ts.

export const customResourceDefinitionKind: KindModule = {
  api: {
    group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false,
    shortNames: ['crd', 'crds'], categories: ['api-extensions'], status: true, storageVersionHash: 'jfWCUB31mvA=',
  },
  generation: true,
  // SetDefaults_CustomResourceDefinitionSpec: no conversion named is no conversion.
  strategy: { defaults: (o) => setDefault(obj(o as Obj, 'spec'), 'conversion', { strategy: 'None' }) },
  protobuf: false,
  columns: [NAME_COLUMN, col('Created At', (o) => str(o, 'metadata.creationTimestamp'), 'date')],
};
