package controllerlab

import (
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"unsafe"
)

// predicate.NewPredicateFuncs(filter) is a predicate.Funcs of four closures, each calling filter:
// a "why not?" answer names filter, the function the user wrote (main.managed), not the closure
// controller-runtime made around it. The closure's name depends on inlining: in predicate's own
// package (predicate.NewPredicateFuncs.func2), or inlined into the caller
// (main.main.NewPredicateFuncs.func2, main.setup.NewTypedPredicateFuncs[...].func1).

// isPredicateFuncsClosure tells a closure NewPredicateFuncs (or its typed form) made, from its name
// and the file it is in (controller-runtime's, inlined or not).
func isPredicateFuncsClosure(fn *runtime.Func, pc uintptr) bool {
	name := fn.Name()
	if !strings.Contains(name, ".NewPredicateFuncs.func") && !strings.Contains(name, ".NewTypedPredicateFuncs[") && !strings.Contains(name, ".NewTypedPredicateFuncs.func") {
		return false
	}
	file, _ := fn.FileLine(pc)
	return strings.HasSuffix(filepath.ToSlash(file), "/pkg/predicate/predicate.go")
}

// capturedFunc is the function a closure holds as its only capture: Go's closure is a pointer to
// {code pointer, captured variables…}, and NewPredicateFuncs' closures capture filter alone, by
// value (it is never reassigned). nil when f holds none.
func capturedFunc(f reflect.Value) *runtime.Func {
	if f.Kind() != reflect.Func || f.IsNil() {
		return nil
	}
	holder := reflect.New(f.Type()).Elem()
	holder.Set(f)
	closure := *(*unsafe.Pointer)(holder.Addr().UnsafePointer())
	if closure == nil {
		return nil
	}
	filter := *(*unsafe.Pointer)(unsafe.Add(closure, unsafe.Sizeof(uintptr(0))))
	if filter == nil {
		return nil
	}
	return runtime.FuncForPC(*(*uintptr)(filter))
}

// filterName names the function NewPredicateFuncs was given, as Go names it without its package
// path (main.managed); "" when it cannot be told.
func filterName(f reflect.Value) string {
	fn := capturedFunc(f)
	if fn == nil {
		return ""
	}
	name := fn.Name()
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}
