// The replicator, fixed: children are named `<parent>-<index>`, so a child the cache does not show
// yet is made again by name and the API server answers AlreadyExists: however stale the cache,
// there are never more than `data.replicas` children.
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
	have := map[string]bool{}
	for _, c := range children {
		have[c.Name] = true
	}
	want, _ := strconv.Atoi(parent.Data["replicas"])
	for i := 0; i < want; i++ {
		name := req.Name + "-" + strconv.Itoa(i)
		if have[name] {
			continue
		}
		if err := r.Create(ctx, family.Child(parent, name, "", map[string]string{"shard": "new"})); client.IgnoreAlreadyExists(err) != nil {
			return reconcile.Result{}, err
		}
	}
	return reconcile.Result{}, nil
}

func main() {
	family.Run("replicator", func(c client.Client) reconcile.Reconciler { return &replicator{c} })
}
