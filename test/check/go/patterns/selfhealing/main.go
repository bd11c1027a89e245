// A correct controller in a common pattern: it keeps exactly data.size children (ConfigMaps with
// generated names, labelled app=<parent>) per parent labelled scaler=true, and owns them, so a
// surplus made on a stale cache is removed once the cache shows it: eventually right, like a
// ReplicaSet without expectations. check must not call the surplus on the way a bug.
package main

import (
	"context"
	"sort"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

type scaler struct{ client.Client }

func (r *scaler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var parent corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &parent); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if parent.Labels["scaler"] != "true" {
		return ctrl.Result{}, nil
	}
	size, _ := strconv.Atoi(parent.Data["size"])
	var list corev1.ConfigMapList
	if err := r.List(ctx, &list, client.InNamespace(req.Namespace), client.MatchingLabels{"app": parent.Name}); err != nil {
		return ctrl.Result{}, err
	}
	children := list.Items
	sort.Slice(children, func(i, j int) bool { return children[i].Name < children[j].Name })
	for i := len(children); i < size; i++ {
		child := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: parent.Name + "-", Namespace: parent.Namespace, Labels: map[string]string{"app": parent.Name}}, Data: map[string]string{"role": "worker"}}
		if err := controllerutil.SetControllerReference(&parent, child, r.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Create(ctx, child); err != nil {
			return ctrl.Result{}, err
		}
	}
	for i := size; i < len(children); i++ {
		if err := r.Delete(ctx, &children[i]); err != nil && !apierrors.IsNotFound(err) {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

func main() {
	ctrl.SetLogger(zap.New())
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	r := &scaler{mgr.GetClient()}
	isParent := predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetLabels()["scaler"] == "true" })
	if err := ctrl.NewControllerManagedBy(mgr).Named("scaler").For(&corev1.ConfigMap{}, builder.WithPredicates(isParent)).Owns(&corev1.ConfigMap{}).Complete(r); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
