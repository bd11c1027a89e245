package controllerlab

import (
	"context"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The handlers the builder makes for For, Owns and Watches are told apart, so triggers and the
// controller's shape say "for", "owns" or "watches" as the TypeScript host does.
func TestForOwnsAndWatchesHandlersAreToldApart(t *testing.T) {
	cases := map[string]any{
		"for":     &handler.EnqueueRequestForObject{},
		"owns":    handler.EnqueueRequestForOwner(clientgoscheme.Scheme, meta.NewDefaultRESTMapper(nil), &corev1.ConfigMap{}, handler.OnlyControllerOwner()),
		"watches": handler.EnqueueRequestsFromMapFunc(func(context.Context, client.Object) []reconcile.Request { return nil }),
	}
	for want, h := range cases {
		if got := handlerVia(reflect.ValueOf(h)); got != want {
			t.Errorf("%T: %s, want %s", h, got, want)
		}
	}
	if got := handlerVia(reflect.ValueOf(handler.Funcs{CreateFunc: func(context.Context, event.CreateEvent, workqueue.TypedRateLimitingInterface[reconcile.Request]) {}})); got != "watches" {
		t.Errorf("a user's handler.Funcs: %s, want watches", got)
	}
}
