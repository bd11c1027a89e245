package controllerlab_test

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// notSkipped keeps ConfigMaps labelled skip=yes out of the controller.
func notSkipped(e event.CreateEvent) bool { return e.Object.GetLabels()["skip"] != "yes" }

// secretToConfigMap maps a Secret labelled for=NAME to the ConfigMap NAME, and any other to nothing.
func secretToConfigMap(_ context.Context, s client.Object) []reconcile.Request {
	name := s.GetLabels()["for"]
	if name == "" {
		return nil
	}
	return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: s.GetNamespace(), Name: name}}}
}

// proceedAllBut lets every held reconcile run except those of key, until the test ends.
func proceedAllBut(t *testing.T, parent *fakeParent, key string) {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		seen := 0
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			starts := parent.matching(seen, func(m *message) bool { return true })
			seen += len(starts)
			for _, m := range starts {
				if m.Type == "reconcileStart" && m.Gated && m.Record.Key != key {
					parent.proceed(m.Record.ReconcileID)
				}
			}
		}
	}()
}

func fateOf(controller, kind, key, rv string) func(m *message) bool {
	return func(m *message) bool {
		return m.Type == "fate" && m.Fate.Controller == controller && m.Fate.Kind == kind && m.Fate.Key == key && (rv == "" || m.Fate.ResourceVersion == rv)
	}
}

// Each watch event's fate at a Go controller's sources goes to the parent: filtered (naming the
// predicate as the builder registered it), mapped to nothing, enqueued while its key is being
// reconciled, and merged into that key when it was already due to run again.
func TestEveryEventsFateAtAGoControllersSourcesIsReported(t *testing.T) {
	cfg := simConfig(t)
	c := directClient(t, cfg)
	ns := newNamespace(t, c, "fates")
	parent := newFakeParent(t, map[string]string{"CONTROLLER_LAB_GATED": "1"})
	target := ns + "/target"
	proceedAllBut(t, parent, target)
	startWrapped(t, cfg, ns, func(mgr manager.Manager) error {
		return ctrl.NewControllerManagedBy(mgr).Named("why-go").
			For(&corev1.ConfigMap{}, builder.WithPredicates(predicate.Funcs{CreateFunc: notSkipped}, predicate.GenerationChangedPredicate{})).
			Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(secretToConfigMap)).
			Complete(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }))
	})
	parent.waitFor("synced", func(m *message) bool { return m.Type == "synced" })
	ctx := context.Background()

	skipped := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "skipped", Labels: map[string]string{"skip": "yes"}}}
	if err := c.Create(ctx, skipped); err != nil {
		t.Fatal(err)
	}
	f := parent.waitFor("the skipped ConfigMap's fate", fateOf("why-go", "ConfigMap", ns+"/skipped", skipped.ResourceVersion)).Fate
	if f.Fate != "filtered" || f.Via != "for" || f.Type != "ADDED" || !strings.HasPrefix(f.Predicate, "predicate.Funcs{CreateFunc: controllerlab_test.notSkipped (fates_e2e_test.go:") {
		t.Errorf("a ConfigMap notSkipped says no to: %+v, want filtered by predicate.Funcs{CreateFunc: controllerlab_test.notSkipped (fates_e2e_test.go:…)}", f)
	}

	// target's reconcile is held: the key is processing from here on.
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "target"}}
	if err := c.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	f = parent.waitFor("target's fate", fateOf("why-go", "ConfigMap", target, cm.ResourceVersion)).Fate
	if f.Fate != "enqueued" || f.Request != target || f.KeyState != "" {
		t.Errorf("a new ConfigMap: %+v, want enqueued %s from nothing", f, target)
	}
	parent.waitFor("target's held reconcile", func(m *message) bool { return m.Type == "reconcileStart" && m.Record.Key == target })

	// A ConfigMap has no generation: GenerationChangedPredicate says no to every update.
	changed := setData(t, c, ns, "target", map[string]string{"a": "1"})
	f = parent.waitFor("the update's fate", fateOf("why-go", "ConfigMap", target, changed)).Fate
	if f.Fate != "filtered" || f.Type != "MODIFIED" || f.Predicate != "predicate.GenerationChangedPredicate" {
		t.Errorf("a data change: %+v, want filtered by predicate.GenerationChangedPredicate", f)
	}

	secret := func(name string, labels map[string]string) *corev1.Secret {
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels}}
		if err := c.Create(ctx, s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	unrelated := secret("unrelated", nil)
	f = parent.waitFor("the unrelated Secret's fate", fateOf("why-go", "Secret", ns+"/unrelated", unrelated.ResourceVersion)).Fate
	if f.Fate != "unmapped" || f.Via != "watches" {
		t.Errorf("a Secret the map function maps to nothing: %+v, want unmapped through watches", f)
	}
	first := secret("first", map[string]string{"for": "target"})
	f = parent.waitFor("the first Secret's fate", fateOf("why-go", "Secret", ns+"/first", first.ResourceVersion)).Fate
	if f.Fate != "enqueued" || f.Request != target || f.KeyState != "processing" {
		t.Errorf("a Secret mapped to target while it is reconciled: %+v, want enqueued %s while processing", f, target)
	}
	second := secret("second", map[string]string{"for": "target"})
	f = parent.waitFor("the second Secret's fate", fateOf("why-go", "Secret", ns+"/second", second.ResourceVersion)).Fate
	if f.Fate != "merged" || f.Request != target || f.KeyState != "processing" {
		t.Errorf("a second Secret mapped to target, already due again: %+v, want merged into %s", f, target)
	}
	// One fate per event and source: the two ConfigMaps' events are reported once each.
	if n := len(parent.matching(0, fateOf("why-go", "ConfigMap", ns+"/skipped", ""))); n != 1 {
		t.Errorf("%d fates for the skipped ConfigMap's one event at one source, want 1", n)
	}
}

// notSkippedSecret keeps Secrets labelled skip=yes out, as a typed source's predicate.
func notSkippedSecret(e event.TypedCreateEvent[*corev1.Secret]) bool {
	return e.Object.Labels["skip"] != "yes"
}

// A typed source (its predicates of *corev1.Secret, not client.Object) cannot have its predicates
// wrapped: the one that filtered an event out is found by asking them again, and named the same way.
func TestATypedSourcesPredicateIsNamedWhenItFiltersAnEventOut(t *testing.T) {
	cfg := simConfig(t)
	c := directClient(t, cfg)
	ns := newNamespace(t, c, "typed-fates")
	parent := newFakeParent(t, nil)
	startWrapped(t, cfg, ns, func(mgr manager.Manager) error {
		toConfigMap := handler.TypedEnqueueRequestsFromMapFunc(func(_ context.Context, s *corev1.Secret) []reconcile.Request {
			return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: s.Namespace, Name: "target"}}}
		})
		return ctrl.NewControllerManagedBy(mgr).Named("why-typed").
			For(&corev1.ConfigMap{}).
			WatchesRawSource(source.Kind(mgr.GetCache(), &corev1.Secret{}, toConfigMap, predicate.TypedFuncs[*corev1.Secret]{CreateFunc: notSkippedSecret})).
			Complete(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }))
	})
	parent.waitFor("synced", func(m *message) bool { return m.Type == "synced" })
	ctx := context.Background()
	create := func(name string, labels map[string]string) *corev1.Secret {
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels}}
		if err := c.Create(ctx, s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	skipped := create("skipped", map[string]string{"skip": "yes"})
	f := parent.waitFor("the skipped Secret's fate", fateOf("why-typed", "Secret", ns+"/skipped", skipped.ResourceVersion)).Fate
	if f.Fate != "filtered" || f.Via != "watches" || !strings.HasPrefix(f.Predicate, "predicate.Funcs{CreateFunc: controllerlab_test.notSkippedSecret (fates_e2e_test.go:") {
		t.Errorf("a Secret the typed predicate says no to: %+v, want filtered by predicate.Funcs{CreateFunc: controllerlab_test.notSkippedSecret (…)}", f)
	}
	kept := create("kept", nil)
	f = parent.waitFor("the kept Secret's fate", fateOf("why-typed", "Secret", ns+"/kept", kept.ResourceVersion)).Fate
	if f.Fate == "filtered" || f.Fate == "unmapped" || f.Request != ns+"/target" {
		t.Errorf("a Secret the typed predicate lets through: %+v, want it mapped to %s/target", f, ns)
	}
}
