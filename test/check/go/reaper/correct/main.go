// The reaper, fixed: it deletes the volume it reads only when it was made for this parent (its
// uid recorded on it), and only that very object (a uid precondition): a volume made since for a
// parent of the same name is another object, and the API server refuses to delete it.
package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/controller-lab/controller-lab/test/check/go/reaper/volume"
)

func main() {
	volume.Run(func(ctx context.Context, c client.Client, parent *corev1.ConfigMap) error {
		var data corev1.ConfigMap
		if err := c.Get(ctx, client.ObjectKey{Namespace: parent.Namespace, Name: volume.Name(parent)}, &data); err != nil {
			return client.IgnoreNotFound(err)
		}
		if data.Labels[volume.ParentUID] != string(parent.UID) {
			return nil
		}
		return client.IgnoreNotFound(c.Delete(ctx, &data, client.Preconditions{UID: &data.UID}))
	})
}
