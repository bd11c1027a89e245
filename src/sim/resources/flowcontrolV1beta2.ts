import type { KubeObject } from '../../shared/k8s.ts';
import type { ConvertedVersion } from './convertedVersion.ts';

// flowcontrol.apiserver.k8s.io/v1beta2, which a v1.28 server still serves (deprecated, gone in
// v1.29) from the v1beta3 objects it stores: a FlowSchema is the same in both, a
// PriorityLevelConfiguration's limited level says assuredConcurrencyShares where v1beta3 says
// nominalConcurrencyShares.

const GROUP = 'flowcontrol.apiserver.k8s.io';

function withVersion(obj: Readonly<KubeObject>, version: string, rename?: [from: string, to: string]): KubeObject {
  const out = structuredClone(obj) as KubeObject;
  out.apiVersion = `${GROUP}/${version}`;
  const limited = (out.spec as { limited?: Record<string, unknown> } | undefined)?.limited;
  if (rename && limited && rename[0] in limited) {
    limited[rename[1]] = limited[rename[0]];
    delete limited[rename[0]];
  }
  return out;
}

const deprecated = (kind: string): string => `${GROUP}/v1beta2 ${kind} is deprecated in v1.26+, unavailable in v1.29+; use ${GROUP}/v1beta3 ${kind}`;

export const flowSchemaV1beta2Version: ConvertedVersion = {
  stored: { group: GROUP, version: 'v1beta3', resource: 'flowschemas' },
  type: { apiVersion: `${GROUP}/v1beta2`, kind: 'FlowSchema' },
  toServed: (o) => withVersion(o, 'v1beta2'),
  toStored: (o) => withVersion(o, 'v1beta3'),
  status: true,
  clusterScoped: true,
  warning: deprecated('FlowSchema'),
};

export const priorityLevelConfigurationV1beta2Version: ConvertedVersion = {
  stored: { group: GROUP, version: 'v1beta3', resource: 'prioritylevelconfigurations' },
  type: { apiVersion: `${GROUP}/v1beta2`, kind: 'PriorityLevelConfiguration' },
  toServed: (o) => withVersion(o, 'v1beta2', ['nominalConcurrencyShares', 'assuredConcurrencyShares']),
  toStored: (o) => withVersion(o, 'v1beta3', ['assuredConcurrencyShares', 'nominalConcurrencyShares']),
  status: true,
  clusterScoped: true,
  warning: deprecated('PriorityLevelConfiguration'),
};
