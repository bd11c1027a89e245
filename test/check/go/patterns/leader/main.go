// A Widget controller run with leader election on, as kubebuilder's main does with --leader-elect:
// each Widget gets a ConfigMap <name>-config with its message and a Ready condition. Its For
// watch drops status-only updates (GenerationChangedPredicate); the status is patched with an
// optimistic lock, so a conflict is an error and a retry.
package main

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/controller-lab/controller-lab/go/controllerlab"

	labv1 "github.com/controller-lab/controller-lab/test/check/go/patterns/widgetapi"
)

type reconciler struct {
	client.Client
	scheme *runtime.Scheme
}

func (r *reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w labv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: w.Name + "-config", Namespace: w.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error {
		cm.Data = map[string]string{"message": w.Spec.Message}
		return controllerutil.SetControllerReference(&w, cm, r.scheme)
	}); err != nil {
		return ctrl.Result{}, err
	}
	before := w.DeepCopy()
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{
		Type: "Ready", Status: metav1.ConditionTrue, Reason: "Configured",
		Message: fmt.Sprintf("config %s holds %q", cm.Name, w.Spec.Message), ObservedGeneration: w.Generation,
	})
	return ctrl.Result{}, r.Status().Patch(ctx, &w, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
}

func main() {
	ctrl.SetLogger(zap.New())
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(labv1.AddToScheme(scheme))
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"},
		LeaderElection: true, LeaderElectionID: "widgets.lab.example.com", LeaderElectionNamespace: "default",
	})
	if err != nil {
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	if err := ctrl.NewControllerManagedBy(mgr).
		For(&labv1.Widget{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Owns(&corev1.ConfigMap{}).
		Complete(&reconciler{Client: mgr.GetClient(), scheme: mgr.GetScheme()}); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
