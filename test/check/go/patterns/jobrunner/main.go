// A Widget runs a Job per generation of its spec, <name>-g<generation>, that echoes its message;
// Jobs of older generations are deleted (with their Pods). When the current Job completes, the
// Widget gets a Done condition for that generation.
package main

import (
	"context"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
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

	labv1 "github.com/controller-lab/controller-lab/test/check/go/patterns/widgetapi"
)

const widgetLabel = "lab.example.com/widget"

type reconciler struct {
	client.Client
	scheme *runtime.Scheme
}

func complete(job *batchv1.Job) bool {
	for _, c := range job.Status.Conditions {
		if c.Type == batchv1.JobComplete && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

func (r *reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w labv1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	name := fmt.Sprintf("%s-g%d", w.Name, w.Generation)
	var jobs batchv1.JobList
	if err := r.List(ctx, &jobs, client.InNamespace(w.Namespace), client.MatchingLabels{widgetLabel: w.Name}); err != nil {
		return ctrl.Result{}, err
	}
	var current *batchv1.Job
	for i := range jobs.Items {
		job := &jobs.Items[i]
		if job.Name == name {
			current = job
			continue
		}
		if err := r.Delete(ctx, job, client.PropagationPolicy(metav1.DeletePropagationBackground)); err != nil && !apierrors.IsNotFound(err) {
			return ctrl.Result{}, err
		}
	}
	if current == nil {
		job := &batchv1.Job{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: w.Namespace, Labels: map[string]string{widgetLabel: w.Name}},
			Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers:    []corev1.Container{{Name: "echo", Image: "busybox", Command: []string{"sh", "-c", "sleep 5"}, Env: []corev1.EnvVar{{Name: "MESSAGE", Value: w.Spec.Message}}}},
			}}},
		}
		if err := controllerutil.SetControllerReference(&w, job, r.scheme); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Create(ctx, job); err != nil && !apierrors.IsAlreadyExists(err) {
			return ctrl.Result{}, err
		}
		current = job
	}
	done := metav1.Condition{Type: "Done", Status: metav1.ConditionFalse, Reason: "Running", Message: "job " + name + " running", ObservedGeneration: w.Generation}
	if complete(current) {
		done.Status, done.Reason, done.Message = metav1.ConditionTrue, "Completed", "job "+name+" completed"
	}
	before := w.DeepCopy()
	if !meta.SetStatusCondition(&w.Status.Conditions, done) {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.Status().Patch(ctx, &w, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
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
	if err := ctrl.NewControllerManagedBy(mgr).For(&labv1.Widget{}).Owns(&batchv1.Job{}).
		Complete(&reconciler{Client: mgr.GetClient(), scheme: mgr.GetScheme()}); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
