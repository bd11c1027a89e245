package controllerlab

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// Server-side apply through controller-runtime's Client.Apply is a write like any other: recorded
// on its reconcile (a PATCH, as it is sent) with the resourceVersion the server answered, and
// remembered so that a later read of an older copy is stale.
func TestApplyIsRecordedAsAWriteOfTheObjectItNames(t *testing.T) {
	inner := fake.NewClientBuilder().WithScheme(clientgoscheme.Scheme).Build()
	l := newLab(newSession(nil, false, false), clientgoscheme.Scheme, nil)
	l.written.watch(configMaps)
	c := newLabClient(inner, l)
	ctx, run := reconcileContext(3)

	if err := c.Apply(ctx, corev1ac.ConfigMap("web", "shop").WithData(map[string]string{"a": "1"}), client.FieldOwner("test"), client.ForceOwnership); err != nil {
		t.Fatal(err)
	}
	if len(run.writes) != 1 {
		t.Fatalf("%d writes recorded, want the apply", len(run.writes))
	}
	w := run.writes[0]
	if w.Verb != "patch" || w.APIVersion != "v1" || w.Kind != "ConfigMap" || w.Namespace != "shop" || w.Name != "web" || w.ResourceVersion == "" || w.Error != nil {
		t.Fatalf("write %+v, want a patch of v1 ConfigMap shop/web with the answered resourceVersion", w)
	}

	// A dry run is recorded, not remembered as a write of this process.
	if err := c.Apply(ctx, corev1ac.ConfigMap("dry", "shop"), client.FieldOwner("test"), client.DryRunAll); err != nil {
		t.Fatal(err)
	}
	if len(run.writes) != 2 {
		t.Fatalf("%d writes recorded, want the dry run too", len(run.writes))
	}

	reads := readChecker{written: l.written, kindOf: inner.GroupVersionKindFor}
	older := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", ResourceVersion: "0"}}
	reads.afterGet(ctx, client.ObjectKey{Namespace: "shop", Name: "web"}, older, nil)
	if len(run.staleReads) != 1 {
		t.Fatalf("stale reads %+v, want the read older than the apply", run.staleReads)
	}
}
