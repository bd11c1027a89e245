// The orphaner: each parent gets a cache ConfigMap, `<parent>-cache`, which goes when the parent
// goes.
//
// Planted bug (intermediate state): the cache has no ownerReference; the controller deletes it
// itself when a reconcile finds the parent gone. Killed after the parent's deletion and before it
// reconciled it, it restarts to a cluster with no parent to be told about: nothing ever asks for
// the gone parent's key, and its cache is left for good (an ownerReference, or a finalizer, would
// have kept the link across the restart).
package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

type orphaner struct{ client.Client }

func (r *orphaner) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	err := r.Get(ctx, req.NamespacedName, &cm)
	if apierrors.IsNotFound(err) {
		// The parent is gone (or it was never one): its cache goes too.
		stale := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name + "-cache"}}
		return reconcile.Result{}, client.IgnoreNotFound(r.Delete(ctx, stale))
	}
	if err != nil || cm.Labels[family.ParentLabel] != "true" {
		return reconcile.Result{}, err
	}
	cache := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name + "-cache", Labels: map[string]string{family.ParentNameLabel: req.Name}},
		Data:       map[string]string{"warm": "true"},
	}
	return reconcile.Result{}, client.IgnoreAlreadyExists(r.Create(ctx, cache))
}

func main() {
	family.Run("orphaner", func(c client.Client) reconcile.Reconciler { return &orphaner{c} })
}
