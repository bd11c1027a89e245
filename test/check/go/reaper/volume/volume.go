// Package volume is the reaper, but for how it deletes a volume. A parent gets a data volume, a
// ConfigMap `<parent>-data` (not owned by the parent, as a StatefulSet's PVC is not owned by the
// cluster resource: nothing else removes it), made once, when the parent is first seen and takes
// the reaper's finalizer. When the parent is deleted the finalizer holds it until its volume is
// deleted. A parent may be deleted and made again under the same name: the new one gets a new
// volume, which no cleanup of the old one may touch.
package volume

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

const (
	Finalizer = "check.example.com/data"
	// ParentUID records which parent a volume was made for.
	ParentUID = "check.example.com/parent-uid"
)

// Delete deletes the volume of parent, which is terminating.
type Delete func(ctx context.Context, c client.Client, parent *corev1.ConfigMap) error

type reaper struct {
	client.Client
	delete Delete
}

func (r *reaper) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var parent corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &parent); err != nil || parent.Labels[family.ParentLabel] != "true" {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if parent.DeletionTimestamp != nil {
		if !controllerutil.ContainsFinalizer(&parent, Finalizer) {
			return reconcile.Result{}, nil
		}
		if err := r.delete(ctx, r, &parent); err != nil {
			return reconcile.Result{}, err
		}
		controllerutil.RemoveFinalizer(&parent, Finalizer)
		return reconcile.Result{}, r.Update(ctx, &parent)
	}
	if controllerutil.ContainsFinalizer(&parent, Finalizer) {
		return reconcile.Result{}, nil
	}
	data := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: Name(&parent), Namespace: parent.Namespace, Labels: map[string]string{ParentUID: string(parent.UID)}},
		Data:       map[string]string{"for": parent.Name},
	}
	if err := client.IgnoreAlreadyExists(r.Create(ctx, data)); err != nil {
		return reconcile.Result{}, err
	}
	controllerutil.AddFinalizer(&parent, Finalizer)
	return reconcile.Result{}, r.Update(ctx, &parent)
}

// Name is the name of parent's volume.
func Name(parent *corev1.ConfigMap) string { return parent.Name + "-data" }

// Run starts a manager with the reaper.
func Run(delete Delete) {
	family.Run("reaper", func(c client.Client) reconcile.Reconciler { return &reaper{Client: c, delete: delete} })
}
