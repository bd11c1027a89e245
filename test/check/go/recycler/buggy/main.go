// The recycler (members, as the restarter's): a member made from another version than its
// parent's is deleted and made again.
//
// Planted bug (stale state): it deletes the member it read from its cache by name, with no
// precondition. On a cache that does not show its own remake yet, the old member is still there,
// and the delete takes the new one, which is then made again: a Pod restarted for nothing, its
// data lost, though the end state is the reference's but for uids (Sieve found this in
// instaclustr's cassandra-operator and the MongoDB operator: Pods and volumes deleted from a stale
// view). The fix (the restarter's correct twin) deletes with the member's uid and
// resourceVersion as preconditions.
package main

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
	"github.com/controller-lab/controller-lab/test/check/go/restarter/members"
)

const rolledOutAnnotation = "check.example.com/rolled-out"

type recycler struct{ client.Client }

func (r *recycler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
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
			if err := client.IgnoreNotFound(r.Delete(ctx, member)); err != nil {
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
	family.Run("recycler", func(c client.Client) reconcile.Reconciler { return &recycler{c} })
}
