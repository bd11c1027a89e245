// The restarter (members): when a parent's version changes, its members are made again from it,
// and the parent records the version it rolled out (check.example.com/rolled-out).
//
// Planted bug (intermediate state): it decides from that record alone, written last, and then
// remakes every member. Killed after remaking the first member and before recording the rollout,
// it restarts to a parent that says nothing was rolled out, and remakes the first member again:
// its process restarted twice, its data lost twice, though the end state is the reference's but
// for uids (Sieve found this kind in the RabbitMQ and MongoDB operators: a restart of every Pod
// decided from a flag written after the restarts, done again after a crash).
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
	rolledOut := parent.Annotations[rolledOutAnnotation]
	rollout := rolledOut != "" && rolledOut != version
	for i := 0; i < members.Count; i++ {
		member, err := members.Get(ctx, r, parent, i)
		if err != nil {
			return reconcile.Result{}, err
		}
		if member != nil && rollout {
			if err := members.Remove(ctx, r, member); err != nil {
				return reconcile.Result{}, err
			}
		}
		if member == nil || rollout {
			if err := members.Make(ctx, r, parent, i); err != nil {
				return reconcile.Result{}, err
			}
		}
	}
	if rolledOut == version {
		return reconcile.Result{}, nil
	}
	return reconcile.Result{}, r.Update(ctx, family.Annotated(parent, rolledOutAnnotation, version))
}

func main() {
	family.Run("restarter", func(c client.Client) reconcile.Reconciler { return &restarter{c} })
}
