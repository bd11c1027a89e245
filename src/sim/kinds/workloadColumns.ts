// `kubectl get` columns the apps workloads share (printDeployment, printReplicaSet, printStatefulSet).
import { col, containerCells, field, labelSelectorText, num, type Obj, type TableColumn } from '../vocabulary/tableCells.ts';

export const replicasReady = (o: Obj): string => `${num(o, 'status.readyReplicas')}/${num(o, 'spec.replicas')}`;

export const WORKLOAD_WIDE: TableColumn[] = [
  col('Containers', (o) => containerCells(field(o, 'spec.template.spec'), 'name'), 'string', 1),
  col('Images', (o) => containerCells(field(o, 'spec.template.spec'), 'image'), 'string', 1),
  col('Selector', (o) => labelSelectorText(field(o, 'spec.selector')), 'string', 1),
];
