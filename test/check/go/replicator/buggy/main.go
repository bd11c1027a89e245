// The replicator: each parent keeps `data.replicas` children. A child holds data once made, so the
// replicator never removes one; it only makes the missing ones, when the parent changes (it does
// not watch the children: nobody else touches them).
//
// Planted bug (stale state): it counts the children in its cache and creates the missing ones with
// generated names. A reconcile on a cache that does not show its own last creates yet counts too
// few and makes more children than asked — and nothing ever removes them.
package main

import (
	"context"
	"strconv"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

type replicator struct{ client.Client }

func (r *replicator) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	children, err := family.Children(ctx, r, parent)
	if err != nil {
		return reconcile.Result{}, err
	}
	want, _ := strconv.Atoi(parent.Data["replicas"])
	for have := len(children); have < want; have++ {
		if err := r.Create(ctx, family.Child(parent, "", req.Name+"-", map[string]string{"shard": "new"})); err != nil {
			return reconcile.Result{}, err
		}
	}
	return reconcile.Result{}, nil
}

func main() {
	family.Run("replicator", func(c client.Client) reconcile.Reconciler { return &replicator{c} })
}
