// The rollover, fixed: once the parent points at the child for its version, every other child of
// the parent (listed by its label and owner, as the cluster keeps them) is deleted, on every
// reconcile: a restart between pointing and deleting finds the old child still listed.
package main

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

const currentAnnotation = "check.example.com/current"

type rollover struct{ client.Client }

func (r *rollover) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	want := req.Name + "-v" + parent.Data["version"]
	if parent.Annotations[currentAnnotation] != want {
		if err := client.IgnoreAlreadyExists(r.Create(ctx, family.Child(parent, want, "", parent.Data))); err != nil {
			return reconcile.Result{}, err
		}
		if err := r.Update(ctx, family.Annotated(parent, currentAnnotation, want)); err != nil {
			return reconcile.Result{}, err
		}
	}
	children, err := family.Children(ctx, r, parent)
	if err != nil {
		return reconcile.Result{}, err
	}
	for i := range children {
		if children[i].Name != want {
			if err := client.IgnoreNotFound(r.Delete(ctx, &children[i])); err != nil {
				return reconcile.Result{}, err
			}
		}
	}
	return reconcile.Result{}, nil
}

func main() {
	family.Run("rollover", func(c client.Client) reconcile.Reconciler { return &rollover{c} })
}
