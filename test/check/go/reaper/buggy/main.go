// The reaper (volume): a parent's data volume is made when it is first seen and deleted when it
// is deleted, before the reaper's finalizer lets it go.
//
// Planted bug (stale state): it deletes the volume by name. Restarted against an API server that
// still shows the old parent terminating after it was deleted and made again under its name (a
// lagging API server: time travel), it deletes the volume of the new parent, which is never made
// again (Sieve found this in the ZooKeeper operator, casskop and instaclustr's cassandra-operator:
// a recreated cluster's PVCs deleted).
package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/controller-lab/controller-lab/test/check/go/reaper/volume"
)

func main() {
	volume.Run(func(ctx context.Context, c client.Client, parent *corev1.ConfigMap) error {
		return client.IgnoreNotFound(c.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: volume.Name(parent), Namespace: parent.Namespace}}))
	})
}
