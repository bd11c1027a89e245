// The orphaner, fixed: the cache is made with the parent as its controlling owner, so the
// cluster's garbage collector deletes it with the parent, whether or not the controller was
// running when the parent went.
package main

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

type orphaner struct{ client.Client }

func (r *orphaner) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	cache := family.Child(parent, req.Name+"-cache", "", map[string]string{"warm": "true"})
	return reconcile.Result{}, client.IgnoreAlreadyExists(r.Create(ctx, cache))
}

func main() {
	family.Run("orphaner", func(c client.Client) reconcile.Reconciler { return &orphaner{c} })
}
