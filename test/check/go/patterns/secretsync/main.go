// The secret syncer, as a tutorial writes it: each ConfigMap labelled
// secretsync.example.com/sync=true gets a Secret of the same data, `<name>-secret`, that it
// controls, kept with controllerutil.CreateOrUpdate — the mutate function sets the Secret's
// stringData, which the API server folds into data and never returns, so every reconcile sends an
// update that changes nothing. It records the Secret's name on the ConfigMap by server-side apply
// (its own field owner), so a label taken off leaves the annotation to it alone to remove.
package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

const (
	syncLabel        = "secretsync.example.com/sync"
	secretAnnotation = "secretsync.example.com/secret"
	fieldOwner       = client.FieldOwner("secretsync")
)

type SecretSyncReconciler struct {
	client.Client
}

func (r *SecretSyncReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	logger := log.FromContext(ctx)
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// What this controller applies to the ConfigMap: its annotation while synced, nothing otherwise
	// (applying no fields gives up the ones it owned).
	applied := corev1ac.ConfigMap(cm.Name, cm.Namespace)
	if cm.Labels[syncLabel] == "true" && cm.DeletionTimestamp == nil {
		secret := &corev1.Secret{ObjectMeta: ctrl.ObjectMeta{Name: cm.Name + "-secret", Namespace: cm.Namespace}}
		op, err := controllerutil.CreateOrUpdate(ctx, r.Client, secret, func() error {
			secret.StringData = map[string]string{}
			for k, v := range cm.Data {
				secret.StringData[k] = v
			}
			// Keys the ConfigMap no longer has go too.
			for k := range secret.Data {
				if _, ok := cm.Data[k]; !ok {
					delete(secret.Data, k)
				}
			}
			secret.Type = corev1.SecretTypeOpaque
			return controllerutil.SetControllerReference(&cm, secret, r.Scheme())
		})
		if err != nil {
			return ctrl.Result{}, err
		}
		logger.Info("secret synced", "secret", secret.Name, "operation", op)
		applied.WithAnnotations(map[string]string{secretAnnotation: secret.Name})
	}
	return ctrl.Result{}, r.Apply(ctx, applied, fieldOwner, client.ForceOwnership)
}

func main() {
	ctrl.SetLogger(zap.New())
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Owns(&corev1.Secret{}).Named("secretsync").
		Complete(&SecretSyncReconciler{Client: mgr.GetClient()}); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
