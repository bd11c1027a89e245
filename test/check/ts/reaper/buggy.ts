// The reaper (volume): a parent's data volume is made when it is first seen and deleted when it
// is deleted, before the reaper's finalizer lets it go.
//
// Planted bug (stale state): it deletes the volume it reads only when it was made for this parent
// (its uid recorded on it), but by name. Restarted against an API server that still shows the old
// parent terminating and its volume after it was deleted and made again under its name (a lagging
// API server: time travel), it deletes the volume of the new parent, which is never made again
// (Sieve found this in the ZooKeeper operator, casskop and instaclustr's cassandra-operator: a
// recreated cluster's PVCs deleted).
import { CONFIGMAP, type ConfigMap } from '../family.ts';
import { notFound, PARENT_UID, reaper, volumeName } from './volume.ts';

export default reaper(async (ctx, parent) => {
  const volume = ctx.get<ConfigMap>('ConfigMap', parent.metadata.namespace ?? '', volumeName(parent));
  if (!volume || volume.metadata.labels?.[PARENT_UID] !== parent.metadata.uid) return;
  await ctx.client.delete({ ...CONFIGMAP, namespace: parent.metadata.namespace, name: volumeName(parent) }).catch(notFound);
});
