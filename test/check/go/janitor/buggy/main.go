// The janitor (scratch): it keeps a scratch ConfigMap for each running worker, and removes it
// once the worker stops.
//
// Planted bug (unobserved state): it removes the scratch when it sees the worker terminating
// (deleted, its deletionTimestamp set, held by another's finalizer), and takes a worker it does
// not find to be one it cleaned up after already. A worker whose terminating state it never
// observes (that change reaching it only with the worker's removal, or a relist across both) leaves
// its scratch behind for good (Sieve found this in instaclustr's cassandra-operator: a Pod's
// deletionTimestamp missed, its PVC never deleted).
package main

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/controller-lab/controller-lab/test/check/go/janitor/scratch"
)

func main() {
	scratch.Run(func(ctx context.Context, c client.Client, worker client.ObjectKey, terminating bool) error {
		if !terminating {
			return nil
		}
		return scratch.Delete(ctx, c, worker)
	})
}
