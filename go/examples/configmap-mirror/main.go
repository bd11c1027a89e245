// configmap-mirror copies the data of every ConfigMap labelled mirror=source into a ConfigMap
// named <name>-mirror, owned by the source. It is an ordinary controller-runtime program; the two
// lines marked "Controller Lab" are all it takes to run it under Controller Lab, which then shows
// and steps through its reconciles. Run any other way, those lines do nothing.
//
//	KUBECONFIG=… go run ./examples/configmap-mirror
package main

import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/go/controllerlab" // Controller Lab
)

type mirrorReconciler struct {
	client.Client
}

func (r *mirrorReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var src corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &src); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if src.Labels["mirror"] != "source" {
		return reconcile.Result{}, nil
	}
	mirror := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: src.Namespace, Name: src.Name + "-mirror"}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, mirror, func() error {
		mirror.Data = src.Data
		return controllerutil.SetControllerReference(&src, mirror, r.Scheme())
	})
	return reconcile.Result{}, err
}

func main() {
	ctrl.SetLogger(zap.New())
	log := ctrl.Log.WithName("configmap-mirror")

	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:  clientgoscheme.Scheme,
		Metrics: metricsserver.Options{BindAddress: "0"}, // no metrics endpoint in this example
	})
	if err != nil {
		log.Error(err, "cannot create the manager")
		os.Exit(1)
	}
	mgr = controllerlab.Wrap(mgr) // Controller Lab

	err = ctrl.NewControllerManagedBy(mgr).
		Named("configmap-mirror").
		For(&corev1.ConfigMap{}).
		Owns(&corev1.ConfigMap{}).
		Complete(&mirrorReconciler{Client: mgr.GetClient()})
	if err != nil {
		log.Error(err, "cannot build the controller")
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		log.Error(err, "the manager stopped")
		os.Exit(1)
	}
}
