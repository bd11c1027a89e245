import type { Cause } from '../../shared/apiErrors.ts';
import { forbidden, invalid, isRecord, notSupported, required } from './fieldErrors.ts';
import { isObj, obj, type Obj } from './defaulting.ts';
import type { KindModule } from './kindModule.ts';
import type { KindStrategy } from './kindStrategy.ts';
import { AGE_COLUMN, col, field, NAME_COLUMN, str } from '../vocabulary/tableCells.ts';

// PriorityLevelConfigurations (flowcontrol.apiserver.k8s.io/v1beta3, as v1.28 serves them): API
// Priority and Fairness's concurrency shares and queues. SetDefaults_*PriorityLevelConfiguration,
// SetDefaults_QueuingConfiguration and ValidatePriorityLevelConfigurationSpec.

const TYPES = ['Exempt', 'Limited'];
const LIMIT_RESPONSES = ['Queue', 'Reject'];
const MAX_QUEUES = 10_000_000;

/** Go's `if x == 0 { x = d }`: a missing or zero number takes the default. */
function zeroDefault(o: Obj, key: string, value: number): void {
  if (!o[key]) o[key] = value;
}

function defaults(o: Obj): void {
  const spec = obj(o, 'spec');
  if (isObj(spec['exempt'])) {
    zeroDefault(spec['exempt'], 'nominalConcurrencyShares', 0);
    zeroDefault(spec['exempt'], 'lendablePercent', 0);
  }
  if (!isObj(spec['limited'])) return;
  const limited = spec['limited'];
  zeroDefault(limited, 'nominalConcurrencyShares', 30);
  zeroDefault(limited, 'lendablePercent', 0);
  const queuing = field(limited, 'limitResponse.queuing');
  if (!isObj(queuing)) return;
  zeroDefault(queuing, 'handSize', 8);
  zeroDefault(queuing, 'queues', 64);
  zeroDefault(queuing, 'queueLengthLimit', 50);
}

const int = (o: unknown, path: string): number | undefined => {
  const v = field(o, path);
  return typeof v === 'number' ? v : undefined;
};

function percentCauses(o: Record<string, unknown>, path: string): Cause[] {
  const lendable = int(o, 'lendablePercent');
  return lendable !== undefined && (lendable < 0 || lendable > 100) ? [invalid(`${path}.lendablePercent`, lendable, 'must be between 0 and 100, inclusive')] : [];
}

function queuingCauses(queuing: Record<string, unknown>, path: string): Cause[] {
  const causes: Cause[] = [];
  const limit = int(queuing, 'queueLengthLimit') ?? 0;
  const queues = int(queuing, 'queues') ?? 0;
  const hand = int(queuing, 'handSize') ?? 0;
  if (limit <= 0) causes.push(invalid(`${path}.queueLengthLimit`, limit, 'must be positive'));
  if (queues <= 0) causes.push(invalid(`${path}.queues`, queues, 'must be positive'));
  else if (queues > MAX_QUEUES) causes.push(invalid(`${path}.queues`, queues, `must not be greater than ${MAX_QUEUES}`));
  if (hand <= 0) causes.push(invalid(`${path}.handSize`, hand, 'must be positive'));
  else if (hand > queues) causes.push(invalid(`${path}.handSize`, hand, `should not be greater than queues (${queues})`));
  return causes;
}

function limitedCauses(limited: Record<string, unknown>, path: string): Cause[] {
  const causes: Cause[] = [];
  const shares = int(limited, 'nominalConcurrencyShares') ?? 0;
  if (shares <= 0) causes.push(invalid(`${path}.nominalConcurrencyShares`, shares, 'must be positive'));
  const response = isRecord(limited['limitResponse']) ? limited['limitResponse'] : {};
  const type = str(response, 'type');
  const queuing = response['queuing'];
  if (type === 'Reject' && queuing !== undefined && queuing !== null) causes.push(forbidden(`${path}.limitResponse.queuing`, 'must be nil if limited.limitResponse.type is not Limited'));
  else if (type === 'Queue' && !isRecord(queuing)) causes.push(required(`${path}.limitResponse.queuing`, 'must not be empty if limited.limitResponse.type is Limited'));
  else if (type === 'Queue' && isRecord(queuing)) causes.push(...queuingCauses(queuing, `${path}.limitResponse.queuing`));
  else if (!LIMIT_RESPONSES.includes(type)) causes.push(notSupported(`${path}.limitResponse.type`, type, LIMIT_RESPONSES));
  causes.push(...percentCauses(limited, path));
  const borrowing = int(limited, 'borrowingLimitPercent');
  if (borrowing !== undefined && borrowing < 0) causes.push(invalid(`${path}.borrowingLimitPercent`, borrowing, 'if specified, must be a non-negative integer'));
  return causes;
}

export const priorityLevelConfigurationStrategy: KindStrategy = {
  defaults: (o) => defaults(o as Obj),
  validate(o): Cause[] {
    const spec = isRecord(o['spec']) ? o['spec'] : {};
    const type = str(spec, 'type');
    const causes: Cause[] = [];
    if ((o.metadata.name === 'exempt') !== (type === 'Exempt')) causes.push(invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
    const present = (k: string): boolean => spec[k] !== undefined && spec[k] !== null;
    if (type === 'Exempt') {
      if (present('limited')) causes.push(forbidden('spec.limited', 'must be nil if the type is not Limited'));
      if (isRecord(spec['exempt'])) {
        const shares = int(spec['exempt'], 'nominalConcurrencyShares');
        if (shares !== undefined && shares < 0) causes.push(invalid('spec.exempt.nominalConcurrencyShares', shares, 'must be a non-negative integer'));
        causes.push(...percentCauses(spec['exempt'], 'spec.exempt'));
      }
    } else if (type === 'Limited') {
      if (present('exempt')) causes.push(forbidden('spec.exempt', 'must be nil if the type is Limited'));
      if (isRecord(spec['limited'])) causes.push(...limitedCauses(spec['limited'], 'spec.limited'));
      else causes.push(required('spec.limited', 'must not be empty when type is Limited'));
    } else {
      causes.push(notSupported('spec.type', type, TYPES));
    }
    return causes;
  },
};

/** A Limited level's number, `<none>` for Exempt levels and for Reject levels' queue settings (as the printer shows them). */
const limitedCell = (path: string) => (o: Readonly<Record<string, unknown>>): unknown => {
  if (!isRecord(field(o, 'spec.limited'))) return '<none>';
  if (path !== 'nominalConcurrencyShares' && !isRecord(field(o, 'spec.limited.limitResponse.queuing'))) return '<none>';
  return field(o, `spec.limited.${path}`) ?? 0;
};

export const priorityLevelConfigurationKind: KindModule = {
  api: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false, status: true, nameRule: 'pathSegment' },
  strategy: priorityLevelConfigurationStrategy,
  generation: true,
  columns: [
    NAME_COLUMN,
    col('Type', (o) => str(o, 'spec.type'), 'string', 0, '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.'),
    col('NominalConcurrencyShares', limitedCell('nominalConcurrencyShares'), 'string', 0, '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server\'s concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level. This field has a default value of 30.'),
    col('Queues', limitedCell('limitResponse.queuing.queues'), 'string', 0, '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.'),
    col('HandSize', limitedCell('limitResponse.queuing.handSize'), 'string', 0, '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request\'s flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.'),
    col('QueueLengthLimit', limitedCell('limitResponse.queuing.queueLengthLimit'), 'string', 0, '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.'),
    AGE_COLUMN,
  ],
};

/** v1beta2, served from the v1beta3 objects (src/sim/resources/flowcontrolV1beta2.ts). */
export const priorityLevelConfigurationV1beta2Kind: KindModule = {
  api: { ...priorityLevelConfigurationKind.api, version: 'v1beta2', storedAs: 'v1beta3' },
};
