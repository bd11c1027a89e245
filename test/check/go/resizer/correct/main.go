// The resizer, fixed: each volume is compared with the size the parent asks for, whatever the set
// says, so a resize cut short by a restart is finished by the next reconcile.
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
	if set != nil && set.Data["size"] != parent.Data["size"] {
		if err := volumes.Remake(ctx, r, parent, set); err != nil {
			return reconcile.Result{}, err
		}
	} else if err := volumes.Ensure(ctx, r, parent, volumes.SetName(parent), set); err != nil {
		return reconcile.Result{}, err
	}
	for i := 0; i < volumes.Count; i++ {
		vol, err := volumes.Get(ctx, r, parent, volumes.VolumeName(parent, i))
		if err != nil {
			return reconcile.Result{}, err
		}
		if vol == nil {
			if err := volumes.Ensure(ctx, r, parent, volumes.VolumeName(parent, i), nil); err != nil {
				return reconcile.Result{}, err
			}
			continue
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
