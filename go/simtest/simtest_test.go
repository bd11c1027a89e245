package simtest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`

// A test gets a working API server with its CRDs installed, from a directory as envtest reads them.
func TestStartServesTheAPIAndInstallsCRDs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "widgets.yaml"), []byte(widgetCRD), 0o600); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	cfg := Start(t, &Environment{CRDDirectoryPaths: []string{dir}, ErrorIfCRDPathMissing: true})
	t.Logf("simulated cluster up with its CRDs in %s", time.Since(started))

	ctx := context.Background()
	clientset := kubernetes.NewForConfigOrDie(cfg)
	if _, err := clientset.CoreV1().Services("default").Get(ctx, "kubernetes", metav1.GetOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("the API does not answer: %v", err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"k": "v"}}
	created, err := clientset.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{})
	if err != nil || created.ResourceVersion == "" {
		t.Fatalf("create: %v (%+v)", err, created)
	}

	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	widget := &unstructured.Unstructured{}
	widget.SetGroupVersionKind(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"})
	widget.SetNamespace("default")
	widget.SetName("w1")
	if err := c.Create(ctx, widget); err != nil {
		t.Fatalf("creating a custom resource of the installed CRD: %v", err)
	}
}

// A missing CRD directory is an error when asked for, as envtest's ErrorIfCRDPathMissing.
func TestMissingCRDPathIsAnError(t *testing.T) {
	env := &Environment{CRDDirectoryPaths: []string{filepath.Join(t.TempDir(), "nope")}, ErrorIfCRDPathMissing: true}
	if _, err := env.Start(); err == nil {
		_ = env.Stop()
		t.Fatal("Start succeeded with a missing CRD directory")
	}
	if err := env.Stop(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkStart measures how long a test waits for its API server (envtest's etcd +
// kube-apiserver take seconds).
func BenchmarkStart(b *testing.B) {
	for i := 0; i < b.N; i++ {
		env := &Environment{}
		if _, err := env.Start(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := env.Stop(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
