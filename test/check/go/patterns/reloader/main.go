// A reloader, as stakater/Reloader does it: a Deployment annotated reloader.example.com/secret=NAME
// gets the hash of that Secret's data in its Pod template, so a changed Secret rolls it out. Secrets
// are watched and mapped to the Deployments that name them through a field index.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

const (
	secretAnnotation = "reloader.example.com/secret"
	hashAnnotation   = "reloader.example.com/secret-hash"
	secretIndex      = "spec.reloaderSecret"
)

type reloader struct{ client.Client }

func hashOf(s *corev1.Secret) string {
	keys := make([]string, 0, len(s.Data))
	for k := range s.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		h.Write([]byte(k))
		h.Write([]byte{0})
		h.Write(s.Data[k])
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func (r *reloader) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var deploy appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &deploy); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	name := deploy.Annotations[secretAnnotation]
	want := ""
	if name != "" {
		var secret corev1.Secret
		err := r.Get(ctx, types.NamespacedName{Namespace: deploy.Namespace, Name: name}, &secret)
		switch {
		case err == nil:
			want = hashOf(&secret)
		case !apierrors.IsNotFound(err):
			return ctrl.Result{}, err
		}
	}
	if deploy.Spec.Template.Annotations[hashAnnotation] == want {
		return ctrl.Result{}, nil
	}
	patch := client.MergeFrom(deploy.DeepCopy())
	if want == "" {
		delete(deploy.Spec.Template.Annotations, hashAnnotation)
	} else {
		if deploy.Spec.Template.Annotations == nil {
			deploy.Spec.Template.Annotations = map[string]string{}
		}
		deploy.Spec.Template.Annotations[hashAnnotation] = want
	}
	return ctrl.Result{}, r.Patch(ctx, &deploy, patch)
}

func main() {
	ctrl.SetLogger(zap.New())
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	ctx := ctrl.SetupSignalHandler()
	if err := mgr.GetFieldIndexer().IndexField(ctx, &appsv1.Deployment{}, secretIndex, func(o client.Object) []string {
		if name := o.GetAnnotations()[secretAnnotation]; name != "" {
			return []string{name}
		}
		return nil
	}); err != nil {
		panic(err)
	}
	c := mgr.GetClient()
	toDeployments := handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
		var list appsv1.DeploymentList
		if err := c.List(ctx, &list, client.InNamespace(o.GetNamespace()), client.MatchingFields{secretIndex: o.GetName()}); err != nil {
			return nil
		}
		reqs := make([]reconcile.Request, 0, len(list.Items))
		for _, d := range list.Items {
			reqs = append(reqs, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: d.Namespace, Name: d.Name}})
		}
		return reqs
	})
	// A Deployment's own status changes (or its rollout) do not concern it: only a new generation or
	// other annotations do.
	deployChanged := predicate.Or(predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{})
	if err := ctrl.NewControllerManagedBy(mgr).Named("reloader").
		For(&appsv1.Deployment{}, builder.WithPredicates(deployChanged)).
		Watches(&corev1.Secret{}, toDeployments).
		Complete(&reloader{c}); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctx); err != nil {
		panic(err)
	}
}
