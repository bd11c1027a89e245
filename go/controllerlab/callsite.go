package controllerlab

import (
	"runtime"
	"strings"
)

// callerOutside finds the controller's line that made a client call: the first frame that is not
// in this package, controller-runtime or client-go (controllerutil.CreateOrUpdate's Create is the
// line that called CreateOrUpdate). Asked only for writes made in a reconcile.
func callerOutside() *CallSite {
	var pcs [24]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if f.Function != "" && !libraryFrame(f.Function) {
			return &CallSite{File: f.File, Line: f.Line, Function: f.Function}
		}
		if !more {
			return nil
		}
	}
}

var libraryPrefixes = []string{
	"github.com/controller-lab/controller-lab/go/controllerlab.",
	"sigs.k8s.io/controller-runtime/",
	"k8s.io/",
	"runtime.",
}

func libraryFrame(function string) bool {
	for _, p := range libraryPrefixes {
		if strings.HasPrefix(function, p) {
			return true
		}
	}
	return false
}
