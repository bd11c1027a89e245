// The looper, fixed: it marks a parent once, when it first sees it; what it writes then stays
// true, so its own write gives it nothing more to do.
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
	if parent == nil || err != nil || parent.Annotations[seenAtAnnotation] != "" {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, r.Update(ctx, family.Annotated(parent, seenAtAnnotation, time.Now().UTC().Format(time.RFC3339Nano)))
}

func main() {
	family.Run("looper", func(c client.Client) reconcile.Reconciler { return &looper{c} })
}
