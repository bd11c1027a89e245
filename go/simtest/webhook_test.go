package simtest

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// A webhook registered through WebhookInstallOptions, as an envtest suite registers it, is called
// by the simulated cluster: a mutating webhook's patch is stored, a validating webhook's refusal is
// the create's error.
func TestWebhooksInstalledAreCalled(t *testing.T) {
	fail, none := admissionv1.Fail, admissionv1.SideEffectClassNone
	mutatePath, validatePath := "/mutate-configmap", "/validate-configmap"
	rules := []admissionv1.RuleWithOperations{{
		Operations: []admissionv1.OperationType{admissionv1.Create},
		Rule:       admissionv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}},
	}}
	service := func(path *string) admissionv1.WebhookClientConfig {
		return admissionv1.WebhookClientConfig{Service: &admissionv1.ServiceReference{Namespace: "default", Name: "webhooks", Path: path}}
	}
	env := &Environment{WebhookInstallOptions: envtest.WebhookInstallOptions{
		MutatingWebhooks: []*admissionv1.MutatingWebhookConfiguration{{
			ObjectMeta: metav1.ObjectMeta{Name: "stamp"},
			Webhooks: []admissionv1.MutatingWebhook{{
				Name: "stamp.example.com", Rules: rules, FailurePolicy: &fail, SideEffects: &none,
				ClientConfig: service(&mutatePath), AdmissionReviewVersions: []string{"v1"},
			}},
		}},
		ValidatingWebhooks: []*admissionv1.ValidatingWebhookConfiguration{{
			ObjectMeta: metav1.ObjectMeta{Name: "refuse"},
			Webhooks: []admissionv1.ValidatingWebhook{{
				Name: "refuse.example.com", Rules: rules, FailurePolicy: &fail, SideEffects: &none,
				ClientConfig: service(&validatePath), AdmissionReviewVersions: []string{"v1"},
			}},
		}},
	}}
	cfg := Start(t, env)
	hooks := env.WebhookInstallOptions

	server := webhook.NewServer(webhook.Options{Host: hooks.LocalServingHost, Port: hooks.LocalServingPort, CertDir: hooks.LocalServingCertDir})
	server.Register(mutatePath, &webhook.Admission{Handler: admission.HandlerFunc(func(_ context.Context, _ admission.Request) admission.Response {
		return admission.Patched("stamped", webhook.JSONPatchOp{Operation: "add", Path: "/metadata/labels", Value: map[string]string{"stamped": "yes"}})
	})})
	server.Register(validatePath, &webhook.Admission{Handler: admission.HandlerFunc(func(_ context.Context, req admission.Request) admission.Response {
		if strings.HasPrefix(req.Name, "forbidden-") {
			return admission.Denied("names starting with forbidden- are refused")
		}
		return admission.Allowed("")
	})})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { _ = server.Start(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for server.StartedChecker()(&http.Request{}) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the webhook server did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}

	configMaps := kubernetes.NewForConfigOrDie(cfg).CoreV1().ConfigMaps("default")
	created, err := configMaps.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "allowed"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if created.Labels["stamped"] != "yes" {
		t.Fatalf("the mutating webhook's patch was not stored: labels %v", created.Labels)
	}
	_, err = configMaps.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "forbidden-one"}}, metav1.CreateOptions{})
	if !apierrors.IsForbidden(err) || !strings.HasSuffix(err.Error(), `admission webhook "refuse.example.com" denied the request: names starting with forbidden- are refused`) {
		t.Fatalf("want the validating webhook's refusal, got %v", err)
	}
}
