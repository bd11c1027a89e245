// The looper: it marks each parent as seen by this controller, with the time it last looked
// (check.example.com/seen-at).
//
// Planted bug (not idempotent, never quiet): it writes the time on every reconcile, and its own
// write is an event of the parent it watches, which it reconciles, and writes again: it never
// stops writing.
package main

import (
	"context"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

const seenAtAnnotation = "check.example.com/seen-at"

type looper struct{ client.Client }

func (r *looper) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, r.Update(ctx, family.Annotated(parent, seenAtAnnotation, time.Now().UTC().Format(time.RFC3339Nano)))
}

func main() {
	family.Run("looper", func(c client.Client) reconcile.Reconciler { return &looper{c} })
}
