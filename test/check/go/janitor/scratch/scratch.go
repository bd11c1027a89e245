// Package scratch is the janitor's controller, but for what it does once a worker is no longer
// running. A worker is a ConfigMap labelled check.example.com/worker=true; while it runs, the
// janitor keeps a scratch ConfigMap for it, `<worker>-scratch` (not owned by the worker, as a
// StatefulSet's PVC is not owned by its Pod: nothing else removes it). A worker is stopped by
// deleting it; someone else's finalizer keeps it, terminating, until that one lets it go.
package scratch

import (
	"context"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

const (
	WorkerLabel = "check.example.com/worker"
	ScratchOf   = "check.example.com/scratch-of"
	suffix      = "-scratch"
)

// Cleanup removes the scratch of the worker `worker` names, which is not running: terminating
// (seen with its deletionTimestamp) or, when not terminating, not in the cache at all.
type Cleanup func(ctx context.Context, c client.Client, worker client.ObjectKey, terminating bool) error

type janitor struct {
	client.Client
	cleanup Cleanup
}

func (r *janitor) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	key, scratchKey := req.NamespacedName, false
	if name, ok := strings.CutSuffix(req.Name, suffix); ok {
		key, scratchKey = client.ObjectKey{Namespace: req.Namespace, Name: name}, true
	}
	var worker corev1.ConfigMap
	err := r.Get(ctx, key, &worker)
	if client.IgnoreNotFound(err) != nil {
		return reconcile.Result{}, err
	}
	if err == nil && worker.Labels[WorkerLabel] != "true" {
		return reconcile.Result{}, nil
	}
	if err == nil && worker.DeletionTimestamp == nil {
		if scratchKey {
			return reconcile.Result{}, nil
		}
		return reconcile.Result{}, client.IgnoreAlreadyExists(r.Create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: worker.Name + suffix, Namespace: worker.Namespace, Labels: map[string]string{ScratchOf: worker.Name}},
			Data:       map[string]string{"for": worker.Name},
		}))
	}
	return reconcile.Result{}, r.cleanup(ctx, r, key, err == nil)
}

// Delete deletes the worker's scratch; one already gone is no error.
func Delete(ctx context.Context, c client.Client, worker client.ObjectKey) error {
	return client.IgnoreNotFound(c.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: worker.Name + suffix, Namespace: worker.Namespace}}))
}

// Run starts a manager with the janitor.
func Run(cleanup Cleanup) {
	family.Run("janitor", func(c client.Client) reconcile.Reconciler { return &janitor{Client: c, cleanup: cleanup} })
}
