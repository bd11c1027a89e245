// A poller: each ConfigMap labelled lab.example.com/poll mirrors, in its annotation
// lab.example.com/remote, a value it polls for every 250 ms (RequeueAfter) from outside the
// cluster's events — here, a Secret read uncached through the API reader, as a controller polls an
// external API. It writes only when the value changed.
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
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

const remote = "lab.example.com/remote"

type poller struct {
	client.Client
	reader client.Reader
}

func (r *poller) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var source corev1.Secret
	value := ""
	if err := r.reader.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: cm.Data["source"]}, &source); err == nil {
		value = string(source.Data["value"])
	} else if client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	if cm.Annotations[remote] != value {
		patch := client.MergeFromWithOptions(cm.DeepCopy(), client.MergeFromWithOptimisticLock{})
		if cm.Annotations == nil {
			cm.Annotations = map[string]string{}
		}
		cm.Annotations[remote] = value
		if err := r.Patch(ctx, &cm, patch); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{RequeueAfter: 250 * time.Millisecond}, nil
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
	labelled := builder.WithPredicates(predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetLabels()["lab.example.com/poll"] != "" }))
	if err := ctrl.NewControllerManagedBy(mgr).Named("poller").For(&corev1.ConfigMap{}, labelled).
		Complete(&poller{Client: mgr.GetClient(), reader: mgr.GetAPIReader()}); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
