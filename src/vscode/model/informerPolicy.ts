// How the view's informers treat what they hold, from the settings (read when an informer starts).

export interface InformerPolicy {
  /** Keep metadata.managedFields (off: the informer's transform drops them). */
  keepManagedFields: boolean;
  /** Warn once before an informer holds more objects than this; 0 = never. */
  maxObjects: number;
}

export const DEFAULT_INFORMER_POLICY: InformerPolicy = { keepManagedFields: false, maxObjects: 200_000 };

/** The warning shown once when an informer's list brings, or its watch takes it to, more objects than the soft limit. */
export function overLimitMessage(informer: string, cluster: string, objects: number, maxObjects: number, listing: boolean): string {
  const n = (v: number) => v.toLocaleString('en-US');
  return (
    `Controller Lab: the informer ${informer} on ${cluster} ${listing ? 'is about to hold' : 'now holds'} ${n(objects)} objects, more than ` +
    `controllerLab.informer.maxObjects (${n(maxObjects)}). It keeps running, but each object costs the extension ` +
    `host memory: narrow it to a namespace or a label selector, or raise the setting.`
  );
}
