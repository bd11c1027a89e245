package controllerlab

import (
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

func isManaged(o client.Object) bool { return o.GetLabels()["managed"] == "yes" }

// A "why not?" answer names the filter given to NewPredicateFuncs, not the closure around it.
func TestPredicateNameOfNewPredicateFuncsNamesTheFilter(t *testing.T) {
	p := predicate.NewPredicateFuncs(isManaged)
	for _, kind := range []eventKind{createEvent, updateEvent, deleteEvent} {
		if got, want := predicateName(p, kind), "predicate.NewPredicateFuncs(controllerlab.isManaged)"; got != want {
			t.Errorf("%s: %q, want %q", kind, got, want)
		}
	}
	typed := predicate.NewTypedPredicateFuncs[client.Object](isManaged)
	if got, want := predicateName(typed, updateEvent), "predicate.NewPredicateFuncs(controllerlab.isManaged)"; got != want {
		t.Errorf("typed: %q, want %q", got, want)
	}
	// A user's own predicate.Funcs keeps its function's name and line.
	own := predicate.Funcs{UpdateFunc: func(event.UpdateEvent) bool { return false }}
	if got := predicateName(own, updateEvent); !strings.HasPrefix(got, "predicate.Funcs{UpdateFunc: controllerlab.TestPredicateNameOfNewPredicateFuncsNamesTheFilter.func") {
		t.Errorf("own Funcs: %q", got)
	}
}
