// Package family holds what the planted-bug controllers here share: which ConfigMaps are parents,
// how a parent's children are found and made, and the manager they run in. A parent is a ConfigMap
// labelled check.example.com/parent=true; its children are ConfigMaps it controls (an
// ownerReference with controller: true), labelled with the parent's name so they can be listed.
// No CRDs: the programs build and start in moments, and the bugs are in their logic.
package family

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

const (
	ParentLabel     = "check.example.com/parent"
	ParentNameLabel = "check.example.com/parent-name"
)

// Parent reads the ConfigMap the request names from the cache: nil when it is not a parent, is
// gone or is going away.
func Parent(ctx context.Context, c client.Client, req reconcile.Request) (*corev1.ConfigMap, error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, req.NamespacedName, &cm); err != nil {
		return nil, client.IgnoreNotFound(err)
	}
	if cm.Labels[ParentLabel] != "true" || cm.DeletionTimestamp != nil {
		return nil, nil
	}
	return &cm, nil
}

// Children lists the parent's children in the cache.
func Children(ctx context.Context, c client.Client, parent *corev1.ConfigMap) ([]corev1.ConfigMap, error) {
	var list corev1.ConfigMapList
	if err := c.List(ctx, &list, client.InNamespace(parent.Namespace), client.MatchingLabels{ParentNameLabel: parent.Name}); err != nil {
		return nil, err
	}
	var children []corev1.ConfigMap
	for _, cm := range list.Items {
		if owner := metav1.GetControllerOf(&cm); owner != nil && owner.UID == parent.UID {
			children = append(children, cm)
		}
	}
	return children, nil
}

// Child is a child of parent holding data: named `name`, or, when name is empty, with a name
// generated from generateName.
func Child(parent *corev1.ConfigMap, name, generateName string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name:         name,
			GenerateName: generateName,
			Namespace:    parent.Namespace,
			Labels:       map[string]string{ParentNameLabel: parent.Name},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "v1", Kind: "ConfigMap", Name: parent.Name, UID: parent.UID,
				Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
			}},
		},
		Data: data,
	}
}

// Annotated is a copy of the parent with one annotation set (it keeps the resourceVersion, so an
// update of it is refused with 409 Conflict if the parent changed since it was read).
func Annotated(parent *corev1.ConfigMap, key, value string) *corev1.ConfigMap {
	out := parent.DeepCopy()
	if out.Annotations == nil {
		out.Annotations = map[string]string{}
	}
	out.Annotations[key] = value
	return out
}

// Run starts a manager (wrapped by Controller Lab when it runs the program) with one controller
// for ConfigMaps, reconciled by what newReconciler makes of the manager's client.
func Run(name string, newReconciler func(client.Client) reconcile.Reconciler) {
	ctrl.SetLogger(zap.New())
	log := ctrl.Log.WithName(name)
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:  clientgoscheme.Scheme,
		Metrics: metricsserver.Options{BindAddress: "0"},
	})
	if err != nil {
		log.Error(err, "cannot create the manager")
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	if err := ctrl.NewControllerManagedBy(mgr).Named(name).For(&corev1.ConfigMap{}).Complete(newReconciler(mgr.GetClient())); err != nil {
		log.Error(err, "cannot build the controller")
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		log.Error(err, "the manager stopped")
		panic(err)
	}
}
