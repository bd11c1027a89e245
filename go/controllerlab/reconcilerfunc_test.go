package controllerlab

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

type pointerReconciler struct{}

func (r *pointerReconciler) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, nil
}

type valueReconciler struct{}

func (r valueReconciler) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, nil
}

// lineOf is the 1-based line of this test file that starts with prefix.
func lineOf(t *testing.T, prefix string) int {
	t.Helper()
	body, err := os.ReadFile("reconcilerfunc_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(l, prefix) {
			return i + 1
		}
	}
	t.Fatalf("no line starts with %q", prefix)
	return 0
}

func TestReconcilerFuncNamesTheUsersReconcileAndWhereItStarts(t *testing.T) {
	funcReconciler := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, nil
	})
	cases := []struct {
		name       string
		reconciler reconcile.Reconciler
		function   string
		line       int
	}{
		{"pointer receiver", &pointerReconciler{}, "controllerlab.(*pointerReconciler).Reconcile", lineOf(t, "func (r *pointerReconciler) Reconcile(")},
		{"value receiver through a pointer", &valueReconciler{}, "controllerlab.valueReconciler.Reconcile", lineOf(t, "func (r valueReconciler) Reconcile(")},
		{"value receiver", valueReconciler{}, "controllerlab.valueReconciler.Reconcile", lineOf(t, "func (r valueReconciler) Reconcile(")},
		{"reconcile.Func", funcReconciler, "controllerlab.TestReconcilerFuncNamesTheUsersReconcileAndWhereItStarts.func1", lineOf(t, "	funcReconciler := reconcile.Func(")},
	}
	for _, c := range cases {
		got := reconcilerFuncOf(c.reconciler)
		if got == nil {
			t.Errorf("%s: nothing found", c.name)
			continue
		}
		// The entry's line: the declaration, or in an optimised build the first statement.
		if !strings.HasSuffix(got.Function, "/go/"+c.function) || filepath.Base(got.File) != "reconcilerfunc_test.go" || got.Line < c.line || got.Line > c.line+1 {
			t.Errorf("%s: got %+v, want %s at reconcilerfunc_test.go:%d", c.name, *got, c.function, c.line)
		}
	}
	if reconcilerFuncOf(nil) != nil {
		t.Errorf("a nil reconciler has no Reconcile")
	}
}
