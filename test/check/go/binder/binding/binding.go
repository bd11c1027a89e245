// Package binding is the binder's controller, but for how it tells that a parent is bound to its
// Secret. A parent (family.Parent) names a Secret in its namespace (data.secret); the binder labels
// that Secret check.example.com/bound-to=<parent> and records the binding on the parent
// (check.example.com/bound, check.example.com/bound-uid). Secrets are watched and mapped back to
// the parents that name them. A parent whose Secret is gone forgets its binding.
package binding

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/go/controllerlab"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

const (
	BoundTo  = "check.example.com/bound-to"
	Bound    = "check.example.com/bound"
	BoundUID = "check.example.com/bound-uid"
)

// IsBound says whether parent's recorded binding is to this Secret, as the binder sees it.
type IsBound func(parent *corev1.ConfigMap, secret *corev1.Secret) bool

type binder struct {
	client.Client
	isBound IsBound
}

func (r *binder) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	var secret corev1.Secret
	err = r.Get(ctx, client.ObjectKey{Namespace: parent.Namespace, Name: parent.Data["secret"]}, &secret)
	switch {
	case apierrors.IsNotFound(err):
		if parent.Annotations[Bound] == "" && parent.Annotations[BoundUID] == "" {
			return reconcile.Result{}, nil
		}
		forgotten := parent.DeepCopy()
		delete(forgotten.Annotations, Bound)
		delete(forgotten.Annotations, BoundUID)
		return reconcile.Result{}, r.Update(ctx, forgotten)
	case err != nil:
		return reconcile.Result{}, err
	case r.isBound(parent, &secret):
		return reconcile.Result{}, nil
	}
	patch := client.MergeFrom(secret.DeepCopy())
	if secret.Labels == nil {
		secret.Labels = map[string]string{}
	}
	secret.Labels[BoundTo] = parent.Name
	if err := r.Patch(ctx, &secret, patch); err != nil {
		return reconcile.Result{}, err
	}
	// An update at the parent's resourceVersion: a conflict if the cache was behind, and a retry.
	bound := family.Annotated(parent, Bound, secret.Name)
	bound.Annotations[BoundUID] = string(secret.UID)
	return reconcile.Result{}, r.Update(ctx, bound)
}

// Run starts a manager with the binder: parents reconciled, Secrets mapped to the parents that name them.
func Run(isBound IsBound) {
	ctrl.SetLogger(zap.New())
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	c := mgr.GetClient()
	naming := func(ctx context.Context, o client.Object) []reconcile.Request {
		var parents corev1.ConfigMapList
		if err := c.List(ctx, &parents, client.InNamespace(o.GetNamespace()), client.MatchingLabels{family.ParentLabel: "true"}); err != nil {
			return nil
		}
		var out []reconcile.Request
		for _, p := range parents.Items {
			if p.Data["secret"] == o.GetName() {
				out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&p)})
			}
		}
		return out
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("binder").For(&corev1.ConfigMap{}).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(naming)).
		Complete(&binder{Client: c, isBound: isBound}); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
