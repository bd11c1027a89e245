// A correct controller in a common pattern: for each ConfigMap labelled secretgen=true it keeps a
// Secret <name>-secret holding its data, and records on the ConfigMap the resourceVersion of the
// Secret it last synced (an annotation, patched in). That number depends on how many writes came
// before in the run: check must not call a run that wrote more or less a different end state.
package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
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

type secretgen struct{ client.Client }

func (r *secretgen) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: cm.Name + "-secret", Namespace: cm.Namespace}}
	_, err := controllerutil.CreateOrUpdate(ctx, r, secret, func() error {
		secret.StringData = nil
		secret.Data = map[string][]byte{}
		for k, v := range cm.Data {
			secret.Data[k] = []byte(v)
		}
		return controllerutil.SetControllerReference(&cm, secret, r.Scheme())
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	if cm.Annotations["secretgen/synced"] == secret.ResourceVersion {
		return ctrl.Result{}, nil
	}
	patch := client.MergeFrom(cm.DeepCopy())
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["secretgen/synced"] = secret.ResourceVersion
	return ctrl.Result{}, r.Patch(ctx, &cm, patch)
}

func main() {
	ctrl.SetLogger(zap.New())
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	labelled := predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetLabels()["secretgen"] == "true" })
	if err := ctrl.NewControllerManagedBy(mgr).Named("secretgen").For(&corev1.ConfigMap{}, builder.WithPredicates(labelled)).Owns(&corev1.Secret{}).Complete(&secretgen{mgr.GetClient()}); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
