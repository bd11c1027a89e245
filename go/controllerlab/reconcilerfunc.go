package controllerlab

import (
	"reflect"
	"runtime"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// ReconcilerFunc says which Go function is a controller's Reconcile, and where it starts: a line
// debugger (Delve) puts a one-shot breakpoint there when the user steps into a reconcile.
type ReconcilerFunc struct {
	// Function is the Go symbol, as Delve names it: "main.(*mirrorReconciler).Reconcile".
	Function string `json:"function"`
	// File and Line: where the function's code starts (its declaration, or in an optimised
	// build its first statement).
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// reconcilerFuncOf finds the user's Reconcile behind a controller's reconciler: the method of its
// type, or the function itself for a reconcile.Func. Nil when the runtime cannot tell.
func reconcilerFuncOf(r reconcile.Reconciler) *ReconcilerFunc {
	v := reflect.ValueOf(r)
	if !v.IsValid() {
		return nil
	}
	var pc uintptr
	if v.Kind() == reflect.Func {
		pc = v.Pointer()
	} else if m, ok := v.Type().MethodByName("Reconcile"); ok {
		pc = m.Func.Pointer()
		// A value-receiver method reached through a pointer is a generated wrapper: the user's
		// code is the element type's method.
		if isGenerated(pc) && v.Kind() == reflect.Pointer {
			if em, ok := v.Type().Elem().MethodByName("Reconcile"); ok {
				pc = em.Func.Pointer()
			}
		}
	}
	f := runtime.FuncForPC(pc)
	if pc == 0 || f == nil {
		return nil
	}
	file, line := f.FileLine(f.Entry())
	if strings.HasPrefix(file, "<") {
		file, line = "", 0
	}
	return &ReconcilerFunc{Function: f.Name(), File: file, Line: line}
}

func isGenerated(pc uintptr) bool {
	f := runtime.FuncForPC(pc)
	if f == nil {
		return false
	}
	file, _ := f.FileLine(f.Entry())
	return strings.HasPrefix(file, "<")
}
