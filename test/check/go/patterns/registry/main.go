// A registry: each ConfigMap labelled lab.example.com/account adds its account, once, to the
// shared Secret "accounts" (data.accounts, sorted and comma-separated), then marks itself
// registered. The Secret is read through the manager's cache on the first registration only:
// controller-runtime starts its informer there, and a process started again with every account
// registered never reads it. It updates the Secret with its resourceVersion, so a stale cache's
// write is refused and retried rather than losing another's account.
package main

import (
	"context"
	"sort"
	"strings"

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

const (
	account    = "lab.example.com/account"
	registered = "lab.example.com/registered"
)

type registry struct{ client.Client }

func (r *registry) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Annotations[registered] == "true" {
		return ctrl.Result{}, nil
	}
	var accounts corev1.Secret
	if err := r.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: "accounts"}, &accounts); err != nil {
		return ctrl.Result{}, err
	}
	set := map[string]bool{cm.Labels[account]: true}
	for _, a := range strings.Split(string(accounts.Data["accounts"]), ",") {
		if a != "" {
			set[a] = true
		}
	}
	list := make([]string, 0, len(set))
	for a := range set {
		list = append(list, a)
	}
	sort.Strings(list)
	if joined := strings.Join(list, ","); joined != string(accounts.Data["accounts"]) {
		if accounts.Data == nil {
			accounts.Data = map[string][]byte{}
		}
		accounts.Data["accounts"] = []byte(joined)
		if err := r.Update(ctx, &accounts); err != nil {
			return ctrl.Result{}, err
		}
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[registered] = "true"
	return ctrl.Result{}, r.Update(ctx, &cm)
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
	labelled := builder.WithPredicates(predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetLabels()[account] != "" }))
	if err := ctrl.NewControllerManagedBy(mgr).Named("registry").For(&corev1.ConfigMap{}, labelled).
		Complete(&registry{Client: mgr.GetClient()}); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
