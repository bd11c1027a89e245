import type { GroupVersionResource } from '../../shared/k8s.ts';
import type { ConvertedVersion } from './convertedVersion.ts';
import { eventsV1Version } from './eventsV1.ts';
import { hpaV1Version } from './hpaV1.ts';
import { flowSchemaV1beta2Version, priorityLevelConfigurationV1beta2Version } from './flowcontrolV1beta2.ts';

// The versions of built-in kinds served by conversion, by the group/version/resource they are served at.

const CONVERTED = new Map<string, ConvertedVersion>([eventsV1Version, hpaV1Version, flowSchemaV1beta2Version, priorityLevelConfigurationV1beta2Version].map((v) => [`${v.type.apiVersion}/${v.stored.resource}`, v]));

/** How the version at group/version/resource is served, when it is served by conversion. */
export function convertedVersionFor(gvr: GroupVersionResource): ConvertedVersion | undefined {
  return CONVERTED.get(`${gvr.group === '' ? '' : `${gvr.group}/`}${gvr.version}/${gvr.resource}`);
}
