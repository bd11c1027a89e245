// A correct controller whose event handler is slow: each ConfigMap labelled lab.example.com/copy
// copies, into its annotation lab.example.com/copied, the value of the Secret its data.source
// names; the Secrets' events reach it through a map func that takes 700 ms (as one that asks an
// outside directory does). What a loaded machine does to any controller — a watch event sent, but
// handed to the handler late — this one does everywhere: check must not read the end state before
// the handler has mapped the event and the controller has acted on it.
package main

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
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
	copyLabel = "lab.example.com/copy"
	copied    = "lab.example.com/copied"
	mapDelay  = 700 * time.Millisecond
)

type copier struct{ client.Client }

func (r *copier) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var source corev1.Secret
	value := ""
	if err := r.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: cm.Data["source"]}, &source); err == nil {
		value = string(source.Data["value"])
	} else if client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	if cm.Annotations[copied] == value {
		return ctrl.Result{}, nil
	}
	patch := client.MergeFromWithOptions(cm.DeepCopy(), client.MergeFromWithOptimisticLock{})
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[copied] = value
	return ctrl.Result{}, r.Patch(ctx, &cm, patch)
}

// copiesOf maps a Secret to the ConfigMaps that copy it, after the outside lookup's delay.
func (r *copier) copiesOf(ctx context.Context, secret client.Object) []reconcile.Request {
	time.Sleep(mapDelay)
	var list corev1.ConfigMapList
	if err := r.List(ctx, &list, client.InNamespace(secret.GetNamespace()), client.HasLabels{copyLabel}); err != nil {
		return nil
	}
	var out []reconcile.Request
	for _, cm := range list.Items {
		if cm.Data["source"] == secret.GetName() {
			out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&cm)})
		}
	}
	return out
}

func main() {
	ctrl.SetLogger(zap.New())
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	r := &copier{Client: mgr.GetClient()}
	labelled := builder.WithPredicates(predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetLabels()[copyLabel] != "" }))
	if err := ctrl.NewControllerManagedBy(mgr).Named("slowmapper").For(&corev1.ConfigMap{}, labelled).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(r.copiesOf)).
		Complete(r); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
