// The linker: each parent gets one child, created with a generated name, and records the child's
// name in its check.example.com/child annotation.
//
// Planted bug (intermediate state): it decides from the annotation alone. Killed between creating
// the child and recording its name, it restarts to a parent with no annotation and creates a
// second child; the first is left behind, owned and unknown.
package main

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

const childAnnotation = "check.example.com/child"

type linker struct{ client.Client }

func (r *linker) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil || parent.Annotations[childAnnotation] != "" {
		return reconcile.Result{}, err
	}
	child := family.Child(parent, "", req.Name+"-", map[string]string{"linked": "true"})
	if err := r.Create(ctx, child); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, r.Update(ctx, family.Annotated(parent, childAnnotation, child.Name))
}

func main() {
	family.Run("linker", func(c client.Client) reconcile.Reconciler { return &linker{c} })
}
