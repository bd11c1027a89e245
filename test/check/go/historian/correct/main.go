// The historian, fixed: it is level-based — it records the version it sees now
// (check.example.com/observed-version), which is the same whichever states it was shown on the
// way. A history of every version cannot come from watching: a watch shows a state, not every
// state; whoever makes the changes must keep it.
package main

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

const observedAnnotation = "check.example.com/observed-version"

type historian struct{ client.Client }

func (r *historian) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	version := parent.Data["version"]
	if version == "" || parent.Annotations[observedAnnotation] == version {
		return reconcile.Result{}, nil
	}
	return reconcile.Result{}, r.Update(ctx, family.Annotated(parent, observedAnnotation, version))
}

func main() {
	family.Run("historian", func(c client.Client) reconcile.Reconciler { return &historian{c} })
}
