package controllerlab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admissionregistration/v1"
)

// controller-gen's config/webhook/manifests.yaml, with kustomize's files beside it.
const manifestsYAML = `---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    service: {name: webhook-service, namespace: system, path: /mutate-cache-example-com-v1alpha1-memcached}
  failurePolicy: Fail
  name: mmemcached-v1alpha1.kb.io
  sideEffects: None
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    service: {name: webhook-service, namespace: system, path: /validate-cache-example-com-v1alpha1-memcached}
  failurePolicy: Fail
  name: vmemcached-v1alpha1.kb.io
  sideEffects: None
`

func TestWebhookConfigsOfAKubebuilderProject(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"manifests.yaml":     manifestsYAML,
		"kustomization.yaml": "resources:\n- manifests.yaml\n- service.yaml\n",
		"service.yaml":       "apiVersion: v1\nkind: Service\nmetadata: {name: webhook-service, namespace: system}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	configs, err := readWebhookConfigs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := webhookConfigNames(configs); got != "mutating-webhook-configuration, validating-webhook-configuration" {
		t.Fatalf("configurations read: %s", got)
	}
	pointWebhooksAt(configs, "127.0.0.1:40001", []byte("PEM"))
	mutating := configs[0].(*admissionv1.MutatingWebhookConfiguration).Webhooks[0].ClientConfig
	validating := configs[1].(*admissionv1.ValidatingWebhookConfiguration).Webhooks[0].ClientConfig
	if mutating.Service != nil || mutating.URL == nil || *mutating.URL != "https://127.0.0.1:40001/mutate-cache-example-com-v1alpha1-memcached" || string(mutating.CABundle) != "PEM" {
		t.Fatalf("mutating webhook's clientConfig: %+v", mutating)
	}
	if validating.URL == nil || *validating.URL != "https://127.0.0.1:40001/validate-cache-example-com-v1alpha1-memcached" {
		t.Fatalf("validating webhook's clientConfig: %+v", validating)
	}

	none, err := readWebhookConfigs(filepath.Join(dir, "missing"))
	if err != nil || len(none) != 0 {
		t.Fatalf("a path that is not there: %v, %v", none, err)
	}
	old := filepath.Join(dir, "old.yaml")
	_ = os.WriteFile(old, []byte("apiVersion: admissionregistration.k8s.io/v1beta1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: old}\n"), 0o600)
	if _, err := readWebhookConfigs(old); err == nil || !strings.Contains(err.Error(), "only admissionregistration.k8s.io/v1 is read") {
		t.Fatalf("a v1beta1 configuration: %v", err)
	}
}

func TestServingCertIsItsOwnCA(t *testing.T) {
	cert, err := newServingCert(webhookHost)
	if err != nil {
		t.Fatal(err)
	}
	leaf := cert.tls.Leaf
	if !leaf.IsCA || len(leaf.IPAddresses) != 1 || leaf.IPAddresses[0].String() != webhookHost {
		t.Fatalf("certificate: CA %v, IPs %v", leaf.IsCA, leaf.IPAddresses)
	}
	if err := leaf.VerifyHostname(webhookHost); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(cert.caBundle), "-----BEGIN CERTIFICATE-----") {
		t.Fatalf("caBundle: %q", cert.caBundle)
	}
}
