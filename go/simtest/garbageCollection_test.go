package simtest

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// As envtest, an Environment is an API server alone: deleting an owner leaves its dependents, which
// a suite written for envtest counts on. ControllerManager: true collects them, as a cluster does.
func TestGarbageCollectionOnlyWithTheControllerManager(t *testing.T) {
	for _, tc := range []struct {
		name             string
		env              *Environment
		dependentRemains bool
	}{
		{"envtest's default", &Environment{}, true},
		{"ControllerManager", &Environment{ControllerManager: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			configMaps := kubernetes.NewForConfigOrDie(Start(t, tc.env)).CoreV1().ConfigMaps("default")
			owner, err := configMaps.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "owner"}}, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ref := metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: owner.Name, UID: owner.UID}
			if _, err := configMaps.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "dependent", OwnerReferences: []metav1.OwnerReference{ref}}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := configMaps.Delete(ctx, "owner", metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(2 * time.Second)
			for {
				_, err := configMaps.Get(ctx, "dependent", metav1.GetOptions{})
				gone := apierrors.IsNotFound(err)
				if err != nil && !gone {
					t.Fatal(err)
				}
				if gone && tc.dependentRemains {
					t.Fatal("the dependent was garbage collected, which envtest's API server alone never does")
				}
				if gone || time.Now().After(deadline) {
					if !gone && !tc.dependentRemains {
						t.Fatal("the dependent outlived its owner with the controller manager running")
					}
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}
