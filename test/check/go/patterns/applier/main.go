// The applier, as controller-runtime's older examples write server-side apply: a typed Deployment
// built whole each reconcile (TypeMeta set, zero values and all: `creationTimestamp: null`,
// `status: {}`, `resources: {}`) sent with Patch(…, client.Apply, FieldOwner, ForceOwnership),
// for each ConfigMap labelled applier.example.com/app=true — its image from data.image, its
// replicas from data.replicas. Applying the same intent again changes nothing, however the
// workload controllers have moved the Deployment's status on.
package main

import (
	"context"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

const appLabel = "applier.example.com/app"

type ApplierReconciler struct {
	client.Client
}

func (r *ApplierReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels[appLabel] != "true" || cm.DeletionTimestamp != nil {
		return ctrl.Result{}, nil
	}
	replicas := int32(1)
	if n, err := strconv.Atoi(cm.Data["replicas"]); err == nil {
		replicas = int32(n)
	}
	labels := map[string]string{"app": cm.Name}
	deploy := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: cm.Name, Namespace: cm.Namespace, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:  "app",
					Image: cm.Data["image"],
					Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
				}}},
			},
		},
	}
	if err := ctrl.SetControllerReference(&cm, deploy, r.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	//nolint:staticcheck // the Patch form of server-side apply, as many controllers still write it
	return ctrl.Result{}, r.Patch(ctx, deploy, client.Apply, client.FieldOwner("applier"), client.ForceOwnership)
}

func main() {
	ctrl.SetLogger(zap.New())
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Owns(&appsv1.Deployment{}).Named("applier").
		Complete(&ApplierReconciler{Client: mgr.GetClient()}); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
