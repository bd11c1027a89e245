import type { Cause } from '../../shared/apiErrors.ts';
import { forbidden, invalid, isRecord, notSupported, records, required } from './fieldErrors.ts';
import { obj, type Obj } from './defaulting.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { AGE_COLUMN, col, list, NAME_COLUMN, num, str } from '../vocabulary/tableCells.ts';

// FlowSchemas (flowcontrol.apiserver.k8s.io/v1beta3, the version a v1.28 server prefers; v1 came
// in v1.29): which requests API Priority and Fairness sends to which priority level.
// SetDefaults_FlowSchemaSpec and ValidateFlowSchemaSpec.

const DEFAULT_MATCHING_PRECEDENCE = 1000;
const MAX_MATCHING_PRECEDENCE = 10000;
const DISTINGUISHERS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];

function subjectCauses(subject: Record<string, unknown>, path: string): Cause[] {
  const kind = subject['kind'];
  if (typeof kind !== 'string' || !SUBJECT_KINDS.includes(kind)) return [notSupported(`${path}.kind`, kind ?? '', SUBJECT_KINDS)];
  const causes: Cause[] = [];
  const member = kind === 'ServiceAccount' ? 'serviceAccount' : kind.toLowerCase();
  for (const other of ['user', 'group', 'serviceAccount']) {
    if (other !== member && subject[other] !== undefined && subject[other] !== null) causes.push(forbidden(`${path}.${other}`, `${other} is forbidden when subject kind is not '${kind}'`));
  }
  const named = subject[member];
  if (!isRecord(named)) return [...causes, required(`${path}.${member}`, `${member} is required when subject kind is '${kind}'`)];
  if (typeof named['name'] !== 'string' || named['name'] === '') causes.push(required(`${path}.${member}.name`));
  if (member === 'serviceAccount' && (typeof named['namespace'] !== 'string' || named['namespace'] === '')) causes.push(required(`${path}.${member}.namespace`, 'must specify namespace for service account'));
  return causes;
}

function ruleCauses(rule: Record<string, unknown>, path: string): Cause[] {
  const subjects = records(rule['subjects']);
  const causes: Cause[] = subjects.length === 0 ? [required(`${path}.subjects`, 'subjects must contain at least one value')] : [];
  subjects.forEach((s, i) => causes.push(...subjectCauses(s, `${path}.subjects[${i}]`)));
  if (records(rule['resourceRules']).length === 0 && records(rule['nonResourceRules']).length === 0) {
    causes.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  }
  return causes;
}

export const flowSchemaStrategy: KindStrategy = {
  defaults(o): void {
    const spec = obj(o as Obj, 'spec');
    if (!spec['matchingPrecedence']) spec['matchingPrecedence'] = DEFAULT_MATCHING_PRECEDENCE;
  },
  validate(o): Cause[] {
    const spec = isRecord(o['spec']) ? o['spec'] : {};
    const causes: Cause[] = [];
    const precedence = num(spec, 'matchingPrecedence');
    if (precedence <= 0) causes.push(invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
    if (precedence > MAX_MATCHING_PRECEDENCE) causes.push(invalid('spec.matchingPrecedence', precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
    if (precedence === 1 && o.metadata.name !== 'exempt') causes.push(invalid('spec.matchingPrecedence', precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
    const method = spec['distinguisherMethod'];
    if (isRecord(method) && !DISTINGUISHERS.includes(str(method, 'type'))) causes.push(notSupported('spec.distinguisherMethod.type', method, DISTINGUISHERS));
    const level = str(spec, 'priorityLevelConfiguration.name');
    if (level === '') causes.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
    else causes.push(...validateName(level, 'pathSegment', 'spec.priorityLevelConfiguration.name'));
    records(spec['rules']).forEach((r, i) => causes.push(...ruleCauses(r, `spec.rules[${i}]`)));
    return causes;
  },
};

/** The Dangling condition's status: whether the priority level it names is missing ("?" before the controller looked). */
function missingPriorityLevel(o: Readonly<Record<string, unknown>>): string {
  const dangling = list(o, 'status.conditions').find((c) => c['type'] === 'Dangling');
  return typeof dangling?.['status'] === 'string' ? dangling['status'] : '?';
}

export const flowSchemaKind: KindModule = {
  api: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'flowschemas', kind: 'FlowSchema', namespaced: false, status: true, nameRule: 'pathSegment' },
  strategy: flowSchemaStrategy,
  generation: true,
  columns: [
    NAME_COLUMN,
    col('PriorityLevel', (o) => str(o, 'spec.priorityLevelConfiguration.name'), 'string', 0, '`name` is the name of the priority level configuration being referenced Required.'),
    col('MatchingPrecedence', (o) => num(o, 'spec.matchingPrecedence'), 'string', 0, '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.'),
    col('DistinguisherMethod', (o) => str(o, 'spec.distinguisherMethod.type', '<none>'), 'string', 0, '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.'),
    AGE_COLUMN,
    col('MissingPL', missingPriorityLevel, 'string', 0, 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
};

/** v1beta2, served from the v1beta3 objects (src/sim/resources/flowcontrolV1beta2.ts). */
export const flowSchemaV1beta2Kind: KindModule = {
  api: { ...flowSchemaKind.api, version: 'v1beta2', storedAs: 'v1beta3' },
};
