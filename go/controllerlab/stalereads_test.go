package controllerlab

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// The rules of a stale read, on objects as a cache returns them: older than this process's own
// write, still there after its delete, missing after its create; forgotten once the informer
// delivers the write.

var configMaps = schema.GroupKind{Kind: "ConfigMap"}

func configMap(name, rv string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name, ResourceVersion: rv, UID: types.UID("uid-" + name)}}
}

func newReadChecker() (readChecker, *ownWrites) {
	w := newOwnWrites()
	w.watch(configMaps)
	return readChecker{written: w, kindOf: func(o runtime.Object) (schema.GroupVersionKind, error) {
		return apiutil.GVKForObject(o, clientgoscheme.Scheme)
	}}, w
}

func reconcileContext(seq int64) (context.Context, *inFlight) {
	run := &inFlight{seq: seq}
	return context.WithValue(context.Background(), inFlightKey{}, run), run
}

func TestAReadOlderThanTheProcessOwnWriteIsStale(t *testing.T) {
	reads, written := newReadChecker()
	ctx, run := reconcileContext(7)
	written.wrote(configMaps, configMap("web", "12"), "update", 7)

	reads.afterGet(ctx, client.ObjectKey{Namespace: "shop", Name: "web"}, configMap("web", "11"), nil)
	reads.afterGet(ctx, client.ObjectKey{Namespace: "shop", Name: "web"}, configMap("web", "11"), nil) // the same read again: one finding
	reads.afterGet(ctx, client.ObjectKey{Namespace: "shop", Name: "web"}, configMap("web", "12"), nil)
	reads.afterGet(ctx, client.ObjectKey{Namespace: "shop", Name: "other"}, configMap("other", "3"), nil)
	want := StaleRead{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "web", ReadResourceVersion: "11", WroteResourceVersion: "12", WroteBy: 7, Verb: "update"}
	if len(run.staleReads) != 1 || run.staleReads[0] != want {
		t.Fatalf("stale reads %+v, want [%+v]", run.staleReads, want)
	}

	// Each item of a List is checked the same way.
	list := &corev1.ConfigMapList{Items: []corev1.ConfigMap{*configMap("a", "1"), *configMap("web", "10")}}
	reads.afterList(ctx, list, nil)
	if len(run.staleReads) != 2 || run.staleReads[1].ReadResourceVersion != "10" || run.staleReads[1].Name != "web" {
		t.Errorf("after a List: %+v", run.staleReads)
	}

	// Once the informer delivers the write, the process forgets it: nothing left to compare with.
	written.observed(configMaps, configMap("web", "12"), false)
	if written.size.Load() != 0 {
		t.Errorf("%d writes still in flight after the informer delivered rv 12", written.size.Load())
	}
}

func TestAnOlderAnswerArrivingLateDoesNotReplaceANewerOne(t *testing.T) {
	_, written := newReadChecker()
	written.wrote(configMaps, configMap("web", "20"), "patch", 2)
	written.wrote(configMaps, configMap("web", "19"), "update", 1)
	if e := written.byObject[refOf(configMaps, configMap("web", ""))]; e.rv != "20" || e.by != 2 {
		t.Errorf("kept %+v, want rv 20 by 2", e)
	}
	written.observed(configMaps, configMap("web", "19"), false)
	if written.size.Load() != 1 {
		t.Errorf("an event older than the write made it forget the write")
	}
}

func TestNotFoundAfterTheProcessCreatedItIsStale(t *testing.T) {
	reads, written := newReadChecker()
	ctx, run := reconcileContext(3)
	written.wrote(configMaps, configMap("new", "30"), "create", 3)
	notFound := apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, "new")
	reads.afterGet(ctx, client.ObjectKey{Namespace: "shop", Name: "new"}, &corev1.ConfigMap{}, notFound)
	if len(run.staleReads) != 1 || !run.staleReads[0].NotFound || run.staleReads[0].Verb != "create" || run.staleReads[0].WroteResourceVersion != "30" {
		t.Errorf("stale reads %+v, want one NotFound against the create", run.staleReads)
	}
}

func TestAfterItsDeleteTheObjectIsStaleUntilTheCacheShowsTheDeletion(t *testing.T) {
	reads, written := newReadChecker()
	ctx, run := reconcileContext(4)
	written.wrote(configMaps, configMap("gone", "40"), "delete", 4)
	key := client.ObjectKey{Namespace: "shop", Name: "gone"}

	reads.afterGet(ctx, key, &corev1.ConfigMap{}, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, "gone"))
	terminating := configMap("gone", "41")
	terminating.DeletionTimestamp = &metav1.Time{}
	reads.afterGet(ctx, key, terminating, nil)
	recreated := configMap("gone", "50")
	recreated.UID = "another"
	reads.afterGet(ctx, key, recreated, nil)
	if len(run.staleReads) != 0 {
		t.Fatalf("fresh reads after a delete were flagged: %+v", run.staleReads)
	}
	reads.afterGet(ctx, key, configMap("gone", "40"), nil)
	if len(run.staleReads) != 1 || run.staleReads[0].Verb != "delete" || run.staleReads[0].ReadResourceVersion != "40" || run.staleReads[0].WroteResourceVersion != "" {
		t.Errorf("stale reads %+v, want the copy from before the delete", run.staleReads)
	}
	written.observed(configMaps, terminating, false)
	if written.size.Load() != 0 {
		t.Errorf("the deletion was delivered and the delete is still in flight")
	}
}

func TestWritesOfKindsNoControllerWatchesAreNotKept(t *testing.T) {
	_, written := newReadChecker()
	written.wrote(schema.GroupKind{Kind: "Secret"}, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", ResourceVersion: "5"}}, "create", 1)
	written.wrote(configMaps, configMap("opaque", "not-a-number"), "update", 1)
	if written.size.Load() != 0 {
		t.Errorf("kept %d writes", written.size.Load())
	}
}

// The informer may deliver a write's own event before the write's answer gets back: the write is
// not kept then, since no later event would come to forget it.
func TestAWriteWhoseEventArrivedFirstIsNotKept(t *testing.T) {
	l := newLab(newSession(nil, false, false), clientgoscheme.Scheme, nil)
	gvk := schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	l.informers[gvk] = &informerState{gvk: gvk, lastSeen: map[string]seenEvent{"shop/web": {typ: "MODIFIED", rv: "12"}, "shop/gone": {typ: "DELETED", rv: "13"}}}
	l.written.watch(configMaps)
	l.rememberWrite(gvk, configMap("web", "12"), "update", 1)
	l.rememberWrite(gvk, configMap("gone", "11"), "delete", 1)
	if n := l.written.size.Load(); n != 0 {
		t.Errorf("%d writes kept whose events were already delivered", n)
	}
	l.rememberWrite(gvk, configMap("web", "14"), "update", 2)
	if n := l.written.size.Load(); n != 1 {
		t.Errorf("a write newer than the informer's last event was not kept")
	}
}
