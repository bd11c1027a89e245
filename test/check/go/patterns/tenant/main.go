// A tenant controller: each Tenant gets an entry in the shared `registry` namespace (a ConfigMap
// it cannot own, so a finalizer removes it when the Tenant goes), a ConfigMap of limits beside it
// that it does own, and a Ready condition. Writes go through CreateOrPatch / CreateOrUpdate and a
// status patch, as kubebuilder projects write them.
package main

import (
	"context"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/controller-lab/controller-lab/go/controllerlab"

	labv1 "github.com/controller-lab/controller-lab/test/check/go/patterns/tenant/api"
)

const (
	finalizer         = "lab.example.com/registry-entry"
	registryNamespace = "registry"
)

type tenantReconciler struct {
	client.Client
	scheme *runtime.Scheme
}

func entryName(t *labv1.Tenant) string { return t.Namespace + "." + t.Name }

func (r *tenantReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var tenant labv1.Tenant
	if err := r.Get(ctx, req.NamespacedName, &tenant); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}

	if !tenant.DeletionTimestamp.IsZero() {
		if !controllerutil.ContainsFinalizer(&tenant, finalizer) {
			return ctrl.Result{}, nil
		}
		entry := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: entryName(&tenant), Namespace: registryNamespace}}
		if err := r.Delete(ctx, entry); err != nil && !apierrors.IsNotFound(err) {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(&tenant, finalizer)
		return ctrl.Result{}, r.Update(ctx, &tenant)
	}

	if controllerutil.AddFinalizer(&tenant, finalizer) {
		if err := r.Update(ctx, &tenant); err != nil {
			return ctrl.Result{}, err
		}
	}

	entry := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: entryName(&tenant), Namespace: registryNamespace}}
	if _, err := controllerutil.CreateOrPatch(ctx, r.Client, entry, func() error {
		if entry.Labels == nil {
			entry.Labels = map[string]string{}
		}
		entry.Labels["lab.example.com/tenant-namespace"] = tenant.Namespace
		entry.Data = map[string]string{"owner": tenant.Spec.Owner, "tenant": tenant.Namespace + "/" + tenant.Name}
		return nil
	}); err != nil {
		return ctrl.Result{}, err
	}

	limits := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: tenant.Name + "-limits", Namespace: tenant.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, limits, func() error {
		limits.Data = map[string]string{"quota": strconv.Itoa(int(tenant.Spec.Quota))}
		return controllerutil.SetControllerReference(&tenant, limits, r.scheme)
	}); err != nil {
		return ctrl.Result{}, err
	}

	before := tenant.DeepCopy()
	tenant.Status.RegistryEntry = registryNamespace + "/" + entry.Name
	meta.SetStatusCondition(&tenant.Status.Conditions, metav1.Condition{
		Type: "Ready", Status: metav1.ConditionTrue, Reason: "Provisioned",
		Message:            fmt.Sprintf("registered for %s with a quota of %d", tenant.Spec.Owner, tenant.Spec.Quota),
		ObservedGeneration: tenant.Generation,
	})
	return ctrl.Result{}, r.Status().Patch(ctx, &tenant, client.MergeFrom(before))
}

func main() {
	ctrl.SetLogger(zap.New())
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(labv1.AddToScheme(scheme))
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	if err := ctrl.NewControllerManagedBy(mgr).Named("tenant").For(&labv1.Tenant{}).Owns(&corev1.ConfigMap{}).
		Complete(&tenantReconciler{Client: mgr.GetClient(), scheme: mgr.GetScheme()}); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
