package controllerlab_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A resync on the parent's request: every object of the controller's For kind in the cache is
// reconciled once more, through its queue, with a RESYNC trigger via "resync".
func TestResyncReconcilesEveryForObjectOnce(t *testing.T) {
	cfg := simConfig(t)
	c := directClient(t, cfg)
	ns := newNamespace(t, c, "resync")
	parent := newFakeParent(t, nil)
	startMirror(t, cfg, ns, "configmap-mirror-resync")
	parent.waitFor("synced", func(m *message) bool { return m.Type == "synced" })

	for _, name := range []string{"web", "api"} {
		src := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"mirror": "source"}}, Data: map[string]string{"a": name}}
		if err := c.Create(context.Background(), src); err != nil {
			t.Fatal(err)
		}
		// The reconcile the mirror's creation triggers through Owns comes last.
		mirrorRV := func() string {
			var rv string
			parent.waitFor("the mirror's delta", func(m *message) bool {
				if m.Type == "delta" && m.Delta.Key == ns+"/"+name+"-mirror" {
					rv = m.Delta.ResourceVersion
					return true
				}
				return false
			})
			return rv
		}()
		owned := parent.waitFor("the reconcile of the mirror's creation", startOf(ns+"/"+name, func(r *record) bool {
			return hasTrigger(r, "ADDED", ns+"/"+name+"-mirror", mirrorRV, "owns")
		})).Record
		parent.waitFor("its end", endOf(owned.ReconcileID))
	}

	var cms corev1.ConfigMapList
	if err := c.List(context.Background(), &cms, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, cm := range cms.Items {
		want[ns+"/"+cm.Name] = cm.ResourceVersion
	}
	if len(want) < 4 {
		t.Fatalf("the namespace holds %d ConfigMaps, want the 2 sources and their 2 mirrors at least", len(want))
	}

	from := parent.mark()
	parent.resync()
	ids := map[string]string{}
	for key, rv := range want {
		start := parent.waitForAfter(from, "the resync's reconcile of "+key, startOf(key, func(r *record) bool { return hasTrigger(r, "RESYNC", key, rv, "resync") })).Record
		if len(start.Trigger) != 1 || start.ObjectResourceVersion != rv {
			t.Errorf("%s: triggers %+v, object rv %s (want only the resync, at %s)", key, start.Trigger, start.ObjectResourceVersion, rv)
		}
		ids[key] = start.ReconcileID
	}
	for key, id := range ids {
		end := parent.waitForAfter(from, "the end of "+key+"'s resync reconcile", endOf(id)).End
		if end.Outcome.Kind != "success" || len(end.Writes) != 0 {
			t.Errorf("%s: the resync's reconcile ended %+v with writes %+v; the mirror controller is idempotent", key, end.Outcome, end.Writes)
		}
	}
	// Once: no key is reconciled twice for it, however long we look.
	time.Sleep(500 * time.Millisecond)
	count := map[string]int{}
	for _, m := range parent.matching(from, func(m *message) bool { return m.Type == "reconcileStart" }) {
		for _, tr := range m.Record.Trigger {
			if tr.Via == "resync" {
				count[m.Record.Key]++
			}
		}
	}
	for key := range want {
		if count[key] != 1 {
			t.Errorf("%s reconciled %d times for the resync, want once", key, count[key])
		}
	}
	if len(count) != len(want) {
		t.Errorf("resync reconciled %v, want exactly the namespace's ConfigMaps %v", count, want)
	}
}
