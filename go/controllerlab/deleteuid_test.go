package controllerlab

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// A delete's answer carries no resourceVersion: its record names the object's uid, by which the
// debugger tells its cache event from that of a new object of the same name.
func TestDeleteRecordsTheObjectsUID(t *testing.T) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", UID: "u-1"}}
	inner := fake.NewClientBuilder().WithScheme(clientgoscheme.Scheme).WithObjects(cm.DeepCopy()).Build()
	c := newLabClient(inner, newLab(newSession(nil, false, false), clientgoscheme.Scheme, nil))
	ctx, run := reconcileContext(1)
	if err := c.Delete(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if len(run.writes) != 1 || run.writes[0].Verb != "delete" || run.writes[0].UID != "u-1" || run.writes[0].ResourceVersion != "" {
		t.Fatalf("writes %+v, want the delete with the object's uid", run.writes)
	}
}
