// The rollover: a parent's `data.version` is served from a child made for that version,
// `<parent>-v<version>`, a copy of the parent's data (immutable, so a new version is a new child).
// The parent's check.example.com/current annotation names the child in use. On a new version it
// makes the new child, points the parent at it, then deletes the child the annotation named before.
//
// Planted bug (intermediate state): the old child is known only from the annotation it just
// overwrote. Killed after pointing the parent at the new child and before deleting the old one, it
// restarts to a parent that is up to date, and the old child is left for good.
package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
	previous := parent.Annotations[currentAnnotation]
	if previous == want {
		return reconcile.Result{}, nil
	}
	if err := client.IgnoreAlreadyExists(r.Create(ctx, family.Child(parent, want, "", parent.Data))); err != nil {
		return reconcile.Result{}, err
	}
	if err := r.Update(ctx, family.Annotated(parent, currentAnnotation, want)); err != nil {
		return reconcile.Result{}, err
	}
	if previous == "" {
		return reconcile.Result{}, nil
	}
	old := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: previous}}
	return reconcile.Result{}, client.IgnoreNotFound(r.Delete(ctx, old))
}

func main() {
	family.Run("rollover", func(c client.Client) reconcile.Reconciler { return &rollover{c} })
}
