// The linker, fixed: it records the child's name in the parent first, then creates the child by
// that name. A crash between the two leaves a name to create, not a child to forget; and the
// record is an update at the parent's resourceVersion, so a reconcile on a cache older than the
// record gets 409 Conflict and creates nothing.
package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

const childAnnotation = "check.example.com/child"

type linker struct{ client.Client }

func (r *linker) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	name := parent.Annotations[childAnnotation]
	if name == "" {
		name = req.Name + "-" + rand.String(5)
		if err := r.Update(ctx, family.Annotated(parent, childAnnotation, name)); err != nil {
			return reconcile.Result{}, err
		}
	}
	var existing corev1.ConfigMap
	if err := r.Get(ctx, types.NamespacedName{Namespace: req.Namespace, Name: name}, &existing); !apierrors.IsNotFound(err) {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, client.IgnoreAlreadyExists(r.Create(ctx, family.Child(parent, name, "", map[string]string{"linked": "true"})))
}

func main() {
	family.Run("linker", func(c client.Client) reconcile.Reconciler { return &linker{c} })
}
