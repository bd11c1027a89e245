// The resizer (volumes): when the parent's size changes, it remakes the set with the new size and
// expands the volumes.
//
// Planted bug (intermediate state): it decides whether to resize from the set alone — a set made
// for another size means a resize is due — and expands the volumes only then. Killed after it
// remade the set and before it expanded the volumes, it restarts to a set of the right size and
// never expands them (Sieve found this in rabbitmq's cluster-operator: a resize lost across a restart).
package main

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
	"github.com/controller-lab/controller-lab/test/check/go/resizer/volumes"
)

type resizer struct{ client.Client }

func (r *resizer) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	set, err := volumes.Get(ctx, r, parent, volumes.SetName(parent))
	if err != nil {
		return reconcile.Result{}, err
	}
	if err := volumes.Ensure(ctx, r, parent, volumes.SetName(parent), set); err != nil {
		return reconcile.Result{}, err
	}
	for i := 0; i < volumes.Count; i++ {
		vol, err := volumes.Get(ctx, r, parent, volumes.VolumeName(parent, i))
		if err != nil {
			return reconcile.Result{}, err
		}
		if err := volumes.Ensure(ctx, r, parent, volumes.VolumeName(parent, i), vol); err != nil {
			return reconcile.Result{}, err
		}
	}
	if set == nil || set.Data["size"] == parent.Data["size"] {
		return reconcile.Result{}, nil
	}
	if err := volumes.Remake(ctx, r, parent, set); err != nil {
		return reconcile.Result{}, err
	}
	for i := 0; i < volumes.Count; i++ {
		vol, err := volumes.Get(ctx, r, parent, volumes.VolumeName(parent, i))
		if err != nil || vol == nil {
			return reconcile.Result{}, err
		}
		if err := volumes.Expand(ctx, r, vol, parent.Data["size"]); err != nil {
			return reconcile.Result{}, err
		}
	}
	return reconcile.Result{}, nil
}

func main() {
	family.Run("resizer", func(c client.Client) reconcile.Reconciler { return &resizer{c} })
}
