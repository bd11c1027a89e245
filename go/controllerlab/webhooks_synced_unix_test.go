//go:build unix

package controllerlab_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

// The parent starts the scenario (kubebuilder's samples) on `synced`: a program with webhooks
// sends it only once its webhook configurations are installed, else the samples are written
// before them and skip the program's defaulting and validation. The configurations are read from
// a named pipe here, so their installation waits for the test whatever the machine's speed.
func TestSyncedWaitsForTheWebhookConfigurations(t *testing.T) {
	cfg := simConfig(t)
	dir := t.TempDir()
	pipe := filepath.Join(dir, "manifests.yaml")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	parent := newFakeParent(t, map[string]string{controllerlab.EnvWebhookConfigs: dir})
	c := directClient(t, cfg)
	t.Cleanup(func() {
		_ = c.Delete(context.Background(), &admissionv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "controllerlab-e2e-validating"}})
	})
	namespace := newNamespace(t, c, "webhooks-synced")
	if err := c.Create(context.Background(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "there", Namespace: namespace}}); err != nil {
		t.Fatal(err)
	}
	startWrapped(t, cfg, namespace, func(mgr manager.Manager) error {
		mgr.GetWebhookServer().Register("/validate-configmap", &webhook.Admission{Handler: admission.HandlerFunc(func(context.Context, admission.Request) admission.Response {
			return admission.Allowed("")
		})})
		return ctrl.NewControllerManagedBy(mgr).Named("webhooks-synced").For(&corev1.ConfigMap{}).
			Complete(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }))
	})
	// A failing test still lets the installer (and so the manager) stop: its read of the pipe ends.
	t.Cleanup(func() {
		if f, err := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			_ = f.Close()
		}
	})

	// The controller runs (its workers started) while the configurations are not installed yet.
	parent.waitFor("a reconcile", func(m *message) bool { return m.Type == "reconcileEnd" })
	time.Sleep(500 * time.Millisecond)
	if got := parent.matching(0, func(m *message) bool { return m.Type == "synced" }); len(got) != 0 {
		t.Fatal("synced was sent before the webhook configurations were installed")
	}

	w, err := os.OpenFile(pipe, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString(webhookTestConfig); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	parent.waitFor("synced", func(m *message) bool { return m.Type == "synced" })
	if err := c.Get(context.Background(), client.ObjectKey{Name: "controllerlab-e2e-validating"}, &admissionv1.ValidatingWebhookConfiguration{}); err != nil {
		t.Fatalf("synced came, but the webhook configuration is not there: %v", err)
	}
}
