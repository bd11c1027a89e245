// The restarter, fixed (see buggy): each member says which version it was made from, and only a
// member made from another version is made again. A restart halfway through a rollout remakes
// only the members the first start did not get to; the record is only a record.
package main

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
	"github.com/controller-lab/controller-lab/test/check/go/restarter/members"
)

const rolledOutAnnotation = "check.example.com/rolled-out"

type restarter struct{ client.Client }

func (r *restarter) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	version := parent.Data["version"]
	for i := 0; i < members.Count; i++ {
		member, err := members.Get(ctx, r, parent, i)
		if err != nil {
			return reconcile.Result{}, err
		}
		outdated := member != nil && member.Data["version"] != version
		if outdated {
			if err := members.Remove(ctx, r, member); err != nil {
				return reconcile.Result{}, err
			}
		}
		if member == nil || outdated {
			if err := members.Make(ctx, r, parent, i); err != nil {
				return reconcile.Result{}, err
			}
		}
	}
	if parent.Annotations[rolledOutAnnotation] == version {
		return reconcile.Result{}, nil
	}
	return reconcile.Result{}, r.Update(ctx, family.Annotated(parent, rolledOutAnnotation, version))
}

func main() {
	family.Run("restarter", func(c client.Client) reconcile.Reconciler { return &restarter{c} })
}
