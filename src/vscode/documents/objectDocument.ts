import type { InformerSession } from '../model/informerSession.ts';
import type { Lab } from '../model/lab.ts';
import { objectToYaml } from '../objectYaml.ts';
import type { ObjectAddress } from './objectUri.ts';

// The text of an object document: a comment saying what you are looking at, then the YAML.

export function objectDocumentText(lab: Lab, address: ObjectAddress, showSecretValues: boolean): string {
  const informer = lab.findInformer(address.informerId)?.informer;
  if (!informer) return `# The informer ${address.informerId} is not running, so ${address.key} cannot be shown.\n`;
  // managedFields show when the informer kept them; when it dropped them, a note says so.
  const body = (obj: unknown): string => `${managedFieldsNote(informer)}${objectToYaml(obj as never, showSecretValues, !informer.managedFieldsDropped)}`;
  if (address.resourceVersion) {
    const { version } = informer.history.at(address.key, address.resourceVersion);
    if (!version) return `# ${address.key} at resourceVersion ${address.resourceVersion} is no longer kept (only recent versions are).\n`;
    // No resourceVersion in the header: two versions side by side should differ only where the object does.
    return `# ${address.key} — a recorded version from informer ${informer.name}, read-only\n${body(version.object)}`;
  }
  const entry = informer.entry(address.key);
  if (entry) {
    return `# ${address.key} — live from informer ${informer.name} (updates as the informer sees changes), read-only\n${body(entry.object)}`;
  }
  const last = informer.history.latest(address.key);
  if (last) {
    return `# ${address.key} was DELETED (resourceVersion ${last.resourceVersion}); its last state follows\n${body(last.object)}`;
  }
  return `# ${address.key} is not in the informer's cache.\n`;
}

/** Says that the informer dropped managedFields, so nobody looks for them in vain. */
function managedFieldsNote(informer: InformerSession): string {
  if (!informer.managedFieldsDropped) return '';
  return '# metadata.managedFields: dropped by the informer to save memory (setting controllerLab.informer.keepManagedFields keeps them for informers started afterwards)\n';
}
