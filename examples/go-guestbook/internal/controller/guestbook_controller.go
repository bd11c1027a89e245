/*
Copyright 2026 The Guestbook Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	webappv1 "example.com/guestbook/api/v1"
)

const (
	// MessageKey is the ConfigMap key holding the guestbook's message.
	MessageKey = "message"
	// ConditionAvailable is True once every frontend replica is ready.
	ConditionAvailable = "Available"
)

// GuestbookReconciler reconciles a Guestbook object: it keeps a ConfigMap with the message and a
// frontend Deployment reading it, both owned by the Guestbook, and reports the frontend in status.
type GuestbookReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// +kubebuilder:rbac:groups=webapp.example.com,resources=guestbooks,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=webapp.example.com,resources=guestbooks/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=webapp.example.com,resources=guestbooks/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete

// Reconcile moves the Guestbook's ConfigMap and Deployment towards its spec and writes its status.
func (r *GuestbookReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)

	var guestbook webappv1.Guestbook
	if err := r.Get(ctx, req.NamespacedName, &guestbook); err != nil {
		// Deleted: the garbage collector removes what it owned.
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}

	configMap := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: guestbook.Namespace, Name: guestbook.Name + "-message"}}
	op, err := controllerutil.CreateOrUpdate(ctx, r.Client, configMap, func() error {
		configMap.Data = map[string]string{MessageKey: guestbook.Spec.Message}
		return controllerutil.SetControllerReference(&guestbook, configMap, r.Scheme)
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	if op != controllerutil.OperationResultNone {
		log.Info("message ConfigMap", "name", configMap.Name, "operation", op)
	}

	deployment := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: guestbook.Namespace, Name: guestbook.Name + "-frontend"}}
	op, err = controllerutil.CreateOrUpdate(ctx, r.Client, deployment, func() error {
		setFrontend(deployment, &guestbook, configMap.Name)
		return controllerutil.SetControllerReference(&guestbook, deployment, r.Scheme)
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	if op != controllerutil.OperationResultNone {
		log.Info("frontend Deployment", "name", deployment.Name, "operation", op)
	}

	before := guestbook.DeepCopy()
	guestbook.Status.ConfigMap = configMap.Name
	guestbook.Status.Deployment = deployment.Name
	guestbook.Status.ReadyReplicas = deployment.Status.ReadyReplicas
	guestbook.Status.ObservedGeneration = guestbook.Generation
	meta.SetStatusCondition(&guestbook.Status.Conditions, availableCondition(&guestbook, deployment))
	if equality.Semantic.DeepEqual(before.Status, guestbook.Status) {
		return ctrl.Result{}, nil
	}
	// A merge patch of status alone: no conflict with a spec edit made since our read.
	if err := r.Status().Patch(ctx, &guestbook, client.MergeFrom(before)); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// setFrontend sets the fields of the Deployment the Guestbook decides and keeps the rest (what
// the API server defaulted), so an unchanged Guestbook does not update its Deployment.
func setFrontend(deployment *appsv1.Deployment, guestbook *webappv1.Guestbook, configMapName string) {
	labels := map[string]string{"app.kubernetes.io/name": "guestbook", "app.kubernetes.io/instance": guestbook.Name}
	replicas := int32(1)
	if guestbook.Spec.Replicas != nil {
		replicas = *guestbook.Spec.Replicas
	}
	image := guestbook.Spec.Image
	if image == "" {
		image = "nginx:1.27"
	}
	deployment.Spec.Replicas = &replicas
	// The selector cannot change once the Deployment exists.
	if deployment.Spec.Selector == nil {
		deployment.Spec.Selector = &metav1.LabelSelector{MatchLabels: labels}
	}
	deployment.Spec.Template.Labels = labels
	spec := &deployment.Spec.Template.Spec
	if len(spec.Containers) == 0 {
		spec.Containers = []corev1.Container{{Name: "frontend"}}
	}
	frontend := &spec.Containers[0]
	frontend.Name = "frontend"
	frontend.Image = image
	frontend.Env = []corev1.EnvVar{{
		Name: "GUESTBOOK_MESSAGE",
		ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: configMapName},
			Key:                  MessageKey,
		}},
	}}
}

func availableCondition(guestbook *webappv1.Guestbook, deployment *appsv1.Deployment) metav1.Condition {
	want := int32(1)
	if deployment.Spec.Replicas != nil {
		want = *deployment.Spec.Replicas
	}
	c := metav1.Condition{Type: ConditionAvailable, ObservedGeneration: guestbook.Generation}
	if deployment.Status.ReadyReplicas >= want {
		c.Status, c.Reason, c.Message = metav1.ConditionTrue, "FrontendReady", "every frontend replica is ready"
	} else {
		c.Status, c.Reason, c.Message = metav1.ConditionFalse, "FrontendNotReady", "waiting for frontend replicas to be ready"
	}
	return c
}

// SetupWithManager sets up the controller with the Manager: a Guestbook is reconciled when it
// changes and when its ConfigMap or Deployment does.
func (r *GuestbookReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&webappv1.Guestbook{}).
		Owns(&corev1.ConfigMap{}).
		Owns(&appsv1.Deployment{}).
		Named("guestbook").
		Complete(r)
}
