package controllerlab_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

// Only the ConfigMaps of this test: the simulated cluster is shared by the package's tests.
const webhookTestConfig = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: controllerlab-e2e-validating
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    service: {name: webhook-service, namespace: system, path: /validate-configmap}
  failurePolicy: Fail
  name: vconfigmap.controllerlab.example.com
  objectSelector: {matchLabels: {controllerlab-e2e: webhooks}}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  sideEffects: None
`

// A wrapped manager whose program registers a webhook, with the parent naming its webhook
// configurations: the webhook server is served on loopback with a certificate of its own, the
// configuration is installed pointing at it, and the simulated cluster's creates go through it.
func TestWrapServesWebhooksAndInstallsTheirConfigurations(t *testing.T) {
	cfg := simConfig(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "manifests.yaml"), []byte(webhookTestConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	newFakeParent(t, map[string]string{controllerlab.EnvWebhookConfigs: dir})
	c := directClient(t, cfg)
	t.Cleanup(func() {
		_ = c.Delete(context.Background(), &admissionv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "controllerlab-e2e-validating"}})
	})
	namespace := newNamespace(t, c, "webhooks")
	startWrapped(t, cfg, namespace, func(mgr manager.Manager) error {
		mgr.GetWebhookServer().Register("/validate-configmap", &webhook.Admission{Handler: admission.HandlerFunc(func(_ context.Context, req admission.Request) admission.Response {
			if strings.HasPrefix(req.Name, "forbidden-") {
				return admission.Denied("names starting with forbidden- are refused")
			}
			return admission.Allowed("")
		})})
		return nil
	})

	installed := &admissionv1.ValidatingWebhookConfiguration{}
	deadline := time.Now().Add(20 * time.Second)
	for c.Get(context.Background(), client.ObjectKey{Name: "controllerlab-e2e-validating"}, installed) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the webhook configuration was not installed")
		}
		time.Sleep(50 * time.Millisecond)
	}
	url := installed.Webhooks[0].ClientConfig.URL
	if url == nil || !strings.HasPrefix(*url, "https://127.0.0.1:") || strings.HasPrefix(*url, "https://127.0.0.1:9443/") || !strings.HasSuffix(*url, "/validate-configmap") {
		t.Fatalf("the configuration points at %v", url)
	}

	labelled := func(name string) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: map[string]string{"controllerlab-e2e": "webhooks"}}}
	}
	err := c.Create(context.Background(), labelled("forbidden-one"))
	if !apierrors.IsForbidden(err) || !strings.HasSuffix(err.Error(), `admission webhook "vconfigmap.controllerlab.example.com" denied the request: names starting with forbidden- are refused`) {
		t.Fatalf("want the program's webhook to refuse the create, got %v", err)
	}
	if err := c.Create(context.Background(), labelled("allowed")); err != nil {
		t.Fatalf("a create the webhook allows: %v", err)
	}
}
