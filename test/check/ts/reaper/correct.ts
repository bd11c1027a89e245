// The reaper, fixed: it deletes the volume it reads only when it was made for this parent (its
// uid recorded on it), and only that very object (a uid precondition): a volume made since for a
// parent of the same name is another object, and the API server refuses to delete it (409: the
// reconcile fails, and is retried on a cache that has caught up).
import type { ConfigMap } from '../family.ts';
import { notFound, PARENT_UID, reaper, volumeName } from './volume.ts';

export default reaper(async (ctx, parent) => {
  const volume = ctx.get<ConfigMap>('ConfigMap', parent.metadata.namespace ?? '', volumeName(parent));
  if (!volume || volume.metadata.labels?.[PARENT_UID] !== parent.metadata.uid) return;
  await ctx.client.delete(volume, { preconditions: { uid: volume.metadata.uid } }).catch(notFound);
});
