// A bundler that writes with server-side apply: each ConfigMap labelled lab.example.com/bundle=true
// gets a child ConfigMap <name>-bundle holding its keys joined into one `bundle` key, and the
// parent's lab.example.com/tier annotation as a label. The child is applied whole every time, as
// SSA controllers do: the API server drops what this field manager stopped applying (the tier
// label once the annotation goes) and keeps what other managers set.
package main

import (
	"context"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

const fieldOwner = client.FieldOwner("bundler")

type bundler struct{ client.Client }

func (r *bundler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var parent corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &parent); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if parent.Labels["lab.example.com/bundle"] != "true" || !parent.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	keys := make([]string, 0, len(parent.Data))
	for k := range parent.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	lines := make([]string, 0, len(keys))
	for _, k := range keys {
		lines = append(lines, k+"="+parent.Data[k])
	}
	labels := map[string]string{"lab.example.com/bundle-of": parent.Name}
	if tier := parent.Annotations["lab.example.com/tier"]; tier != "" {
		labels["lab.example.com/tier"] = tier
	}
	child := corev1ac.ConfigMap(parent.Name+"-bundle", parent.Namespace).
		WithLabels(labels).
		WithOwnerReferences(metav1ac.OwnerReference().
			WithAPIVersion("v1").WithKind("ConfigMap").WithName(parent.Name).WithUID(parent.UID).
			WithController(true).WithBlockOwnerDeletion(true)).
		WithData(map[string]string{"bundle": strings.Join(lines, "\n"), "keys": strings.Join(keys, ",")})
	return ctrl.Result{}, r.Apply(ctx, child, fieldOwner, client.ForceOwnership)
}

func main() {
	ctrl.SetLogger(zap.New())
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	bundles := predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetLabels()["lab.example.com/bundle"] == "true" })
	if err := ctrl.NewControllerManagedBy(mgr).Named("bundler").
		For(&corev1.ConfigMap{}, builder.WithPredicates(bundles)).
		Owns(&corev1.ConfigMap{}).
		Complete(&bundler{mgr.GetClient()}); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
