package controllerlab

import (
	"context"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// What a resync hands to the For handler: the informer's own objects when it has a store (the
// multi-namespace cache's informers have none: the end-to-end test lists through the cache).
func TestAResyncTakesTheObjectsFromTheInformerStore(t *testing.T) {
	store := toolscache.NewStore(toolscache.MetaNamespaceKeyFunc)
	for _, name := range []string{"a", "b"} {
		_ = store.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name, ResourceVersion: "1"}})
	}
	l := newLab(newSession(nil, false, false), clientgoscheme.Scheme, nil)
	inf := &labInformer{Informer: storeInformer{store: store}, lab: l, informerState: &informerState{gvk: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}}}
	got := map[string]bool{}
	for _, obj := range inf.objects(context.Background()) {
		got[objectKey(obj)] = true
	}
	if len(got) != 2 || !got["shop/a"] || !got["shop/b"] {
		t.Errorf("objects %v, want shop/a and shop/b", got)
	}
}

func TestAResyncListsTheKindInTheFormTheInformerHoldsIt(t *testing.T) {
	l := newLab(newSession(nil, false, false), clientgoscheme.Scheme, nil)
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	for name, tc := range map[string]struct {
		proto client.Object
		want  string
	}{
		"typed":         {&appsv1.Deployment{}, "*v1.DeploymentList"},
		"unstructured":  {u, "*unstructured.UnstructuredList"},
		"metadata only": {&metav1.PartialObjectMetadata{}, "*v1.PartialObjectMetadataList"},
	} {
		inf := &labInformer{lab: l, informerState: &informerState{gvk: gvk, proto: tc.proto}}
		list := inf.newList()
		if got := typeName(list); got != tc.want {
			t.Errorf("%s: %s, want %s", name, got, tc.want)
		}
		if k := list.GetObjectKind().GroupVersionKind(); name != "typed" && k.Kind != "DeploymentList" {
			t.Errorf("%s: the list names kind %q", name, k.Kind)
		}
	}
}

func typeName(v any) string {
	return fmt.Sprintf("%T", v)
}
