package controllerlab_test

import (
	"context"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// stamper writes each ConfigMap labelled stamp=me and reads it back at once through the same
// client: it sets the annotation `stamp` to the value the test asks for, and otherwise updates the
// object unchanged (a write the API server answers with the resourceVersion it already had).
type stamper struct {
	client client.Client
	mu     sync.Mutex
	want   string
	// The resourceVersion each read-back returned, by reconcile order.
	readBack []string
}

func (r *stamper) stampWith(value string) {
	r.mu.Lock()
	r.want = value
	r.mu.Unlock()
}

func (r *stamper) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := r.client.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels["stamp"] != "me" {
		return reconcile.Result{}, nil
	}
	r.mu.Lock()
	want := r.want
	r.mu.Unlock()
	if want != "" && cm.Annotations["stamp"] != want {
		if cm.Annotations == nil {
			cm.Annotations = map[string]string{}
		}
		cm.Annotations["stamp"] = want
	}
	if err := r.client.Update(ctx, &cm); err != nil {
		return reconcile.Result{}, err
	}
	var again corev1.ConfigMap
	err := r.client.Get(ctx, req.NamespacedName, &again)
	r.mu.Lock()
	r.readBack = append(r.readBack, again.ResourceVersion)
	r.mu.Unlock()
	return reconcile.Result{}, err
}

func (r *stamper) lastReadBack() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.readBack) == 0 {
		return ""
	}
	return r.readBack[len(r.readBack)-1]
}

func onlyWrite(t *testing.T, end *reconcileEnd) write {
	t.Helper()
	if len(end.Writes) != 1 {
		t.Fatalf("writes %+v, want one", end.Writes)
	}
	return end.Writes[0]
}

// A reconcile that reads back its own write from a cache that has not caught up read stale state,
// and says so; once the cache has the write, the same read is fresh. A write that changes nothing is
// reported as unchanged.
func TestStaleReadsOfTheProcessOwnWritesAreReported(t *testing.T) {
	cfg := simConfig(t)
	c := directClient(t, cfg)
	ns := newNamespace(t, c, "stale")
	parent := newFakeParent(t, nil)
	r := &stamper{}
	startWrapped(t, cfg, ns, func(mgr manager.Manager) error {
		r.client = mgr.GetClient()
		return ctrl.NewControllerManagedBy(mgr).Named("stamper").For(&corev1.ConfigMap{}).Complete(r)
	})
	parent.waitFor("synced", func(m *message) bool { return m.Type == "synced" })

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "target", Labels: map[string]string{"stamp": "me"}}}
	if err := c.Create(context.Background(), cm); err != nil {
		t.Fatal(err)
	}
	key := ns + "/target"
	created := cm.ResourceVersion

	// The first reconcile updates the object unchanged and reads it back: the server answered the
	// resourceVersion the cache already holds, so the write is unchanged and the read fresh.
	first := parent.waitFor("the reconcile of the new ConfigMap", startOf(key, func(r *record) bool { return hasTrigger(r, "ADDED", key, created, "for") })).Record
	end := parent.waitFor("its end", endOf(first.ReconcileID)).End
	w := onlyWrite(t, end)
	if w.Error != nil || w.ResourceVersion != created || w.PreviousResourceVersion != created || w.Changed == nil || *w.Changed {
		t.Errorf("a no-op update: %+v (changed %v), want rv %s, previous %s, changed false", w, w.Changed, created, created)
	}
	if len(end.StaleReads) != 0 || r.lastReadBack() != created {
		t.Errorf("a fresh read back (rv %s) reported stale: %+v", r.lastReadBack(), end.StaleReads)
	}

	// Watch events held back: the cache stays at `created` whatever is written. A resync reconciles
	// the object again; this time it stamps it and reads it back from the lagging cache.
	simFault(t, cfg, "withhold-events")
	released := false
	release := func() {
		if !released {
			released = true
			simFault(t, cfg, "release-events")
		}
	}
	t.Cleanup(release)
	r.stampWith("1")
	from := parent.mark()
	parent.resync()
	stale := parent.waitForAfter(from, "the resync's reconcile", startOf(key, func(r *record) bool { return hasTrigger(r, "RESYNC", key, created, "resync") })).Record
	end = parent.waitForAfter(from, "its end", endOf(stale.ReconcileID)).End
	w = onlyWrite(t, end)
	stamped := serverRV(t, c, ns, "target")
	if w.ResourceVersion != stamped || w.PreviousResourceVersion != created || w.Changed == nil || !*w.Changed {
		t.Errorf("the stamping update: %+v (changed %v), want rv %s from %s, changed true", w, w.Changed, stamped, created)
	}
	if got := r.lastReadBack(); got != created {
		t.Fatalf("the read back returned rv %s: the cache was not lagging (want %s, written %s)", got, created, stamped)
	}
	want := staleRead{APIVersion: "v1", Kind: "ConfigMap", Namespace: ns, Name: "target", ReadResourceVersion: created, WroteResourceVersion: stamped, WroteBy: stale.Seq, Verb: "update"}
	if len(end.StaleReads) != 1 || end.StaleReads[0] != want {
		t.Errorf("stale reads %+v, want [%+v]", end.StaleReads, want)
	}

	// Events delivered: the stamp's own event triggers a reconcile that reads the object fresh (and
	// updates it unchanged).
	release()
	fresh := parent.waitForAfter(from, "the reconcile of the stamp's event", startOf(key, func(r *record) bool { return hasTrigger(r, "MODIFIED", key, stamped, "for") })).Record
	end = parent.waitForAfter(from, "its end", endOf(fresh.ReconcileID)).End
	w = onlyWrite(t, end)
	if w.ResourceVersion != stamped || w.Changed == nil || *w.Changed {
		t.Errorf("the update after the stamp: %+v (changed %v), want unchanged at %s", w, w.Changed, stamped)
	}
	if len(end.StaleReads) != 0 || r.lastReadBack() != stamped {
		t.Errorf("a fresh read back (rv %s) reported stale: %+v", r.lastReadBack(), end.StaleReads)
	}
}
