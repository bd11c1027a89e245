// The janitor, fixed: a worker terminating or gone has no scratch, whichever key brought it and
// whatever it saw before — a scratch left by a worker it never saw stop is found by the scratch's
// own key (every ConfigMap is reconciled, on its events and at start).
package main

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/controller-lab/controller-lab/test/check/go/janitor/scratch"
)

func main() {
	scratch.Run(func(ctx context.Context, c client.Client, worker client.ObjectKey, _ bool) error {
		return scratch.Delete(ctx, c, worker)
	})
}
