package simtest

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
)

// A suite written for envtest sets these fields as kubebuilder's scaffold does; on a
// simtest.Environment they compile and mean the same, and the binary directory is only logged.
func TestEnvtestFieldsAsKubebuilderSetsThem(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "widgets.yaml"), []byte(widgetCRD), 0o600); err != nil {
		t.Fatal(err)
	}
	testEnv := &Environment{
		CRDDirectoryPaths:     []string{dir},
		ErrorIfCRDPathMissing: true,
	}
	testEnv.BinaryAssetsDirectory = filepath.Join("..", "..", "bin", "k8s", "1.34.1-linux-amd64")
	cfg, err := testEnv.Start()
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer func() {
		if err := testEnv.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
	}()
	if cfg == nil || testEnv.Config != cfg {
		t.Fatalf("Start answered %v, Config is %v", cfg, testEnv.Config)
	}
	if len(testEnv.CRDs) != 1 || testEnv.CRDs[0].Name != "widgets.example.com" {
		t.Fatalf("CRDs after Start: %v, want the installed widgets.example.com", testEnv.CRDs)
	}
	kubeconfig, err := clientcmd.Load(testEnv.KubeConfig)
	if err != nil || len(kubeconfig.Clusters) == 0 {
		t.Fatalf("KubeConfig is not a kubeconfig: %v", err)
	}
	if testEnv.WebhookInstallOptions.LocalServingPort == 0 || testEnv.WebhookInstallOptions.LocalServingCertDir == "" {
		t.Fatalf("WebhookInstallOptions were not prepared as envtest prepares them: %+v", testEnv.WebhookInstallOptions)
	}
}

// A CRD whose conversion envtest makes a webhook (its type convertible in the scheme, or
// IgnoreSchemeConvertible) is installed, and named as one the sim serves unconverted.
func TestConversionWebhookCRDsAreNamed(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "widgets.yaml"), []byte(widgetCRD), 0o600); err != nil {
		t.Fatal(err)
	}
	testEnv := &Environment{CRDDirectoryPaths: []string{dir}}
	testEnv.WebhookInstallOptions.IgnoreSchemeConvertible = true
	Start(t, testEnv)
	if got := unconvertedCRDs(testEnv.CRDs); len(got) != 1 || got[0] != "widgets.example.com" {
		t.Fatalf("CRDs with a conversion webhook: %v, want [widgets.example.com]", got)
	}

	plain := &Environment{CRDDirectoryPaths: []string{dir}}
	Start(t, plain)
	if got := unconvertedCRDs(plain.CRDs); len(got) != 0 {
		t.Fatalf("CRDs with a conversion webhook: %v, want none", got)
	}
}
